mod error;
fn main() { println!("{}", error::describe(2)); }
