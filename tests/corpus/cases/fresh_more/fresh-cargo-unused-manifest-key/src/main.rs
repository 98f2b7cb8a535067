fn main() {
    println!("hello from cargo");
}
