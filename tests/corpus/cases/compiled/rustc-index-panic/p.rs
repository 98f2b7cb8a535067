fn main() {
    let v: Vec<i32> = std::env::args().skip(5).map(|_| 1).collect();
    println!("{}", v[3]);
}
