fn main() {
    let args: Vec<String> = std::env::args().collect();
    let cfg = std::fs::read_to_string("app.toml").unwrap();
    println!("{} {}", args.len(), cfg);
}
