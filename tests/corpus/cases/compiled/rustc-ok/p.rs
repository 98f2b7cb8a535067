fn main() { println!("ok {}", 2 + 2); }
