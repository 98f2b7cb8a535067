use std::io::Write;
fn main() { std::io::stdout().write_all(b"Zo\xeb;M\xfcller\n").unwrap(); }
