fn main() {
    eprintln!("warn: first connection attempt failed: Connection refused (os error 111); retrying");
    eprintln!("error count: 0");
    println!("exported 12 rows");
}
