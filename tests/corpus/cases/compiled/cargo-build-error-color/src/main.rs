fn main() {
    let x: i32 = "five";
    println!("{}", x);
}
