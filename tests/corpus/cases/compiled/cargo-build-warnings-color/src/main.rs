fn main() {
    let unused = 5;
    let mut x = 1;
    println!("{}", 2);
}
