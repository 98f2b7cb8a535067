use std::collections::HashMap;
fn main() {
    let m: HashMap<&str, u32> = HashMap::new();
    let v = m.get("retries").unwrap();
    println!("{v}");
}
