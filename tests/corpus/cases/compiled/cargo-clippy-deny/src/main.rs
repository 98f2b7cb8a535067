fn main() {
    let v = vec![1, 2, 3];
    if v.len() == 0 { return; }
    println!("{}", v.len());
}
