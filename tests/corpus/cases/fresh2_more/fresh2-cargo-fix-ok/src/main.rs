use std::collections::HashMap;
use std::fmt;
fn main() {
    let m: HashMap<&str, i32> = HashMap::new();
    println!("{}", m.len());
}
