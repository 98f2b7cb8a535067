fn main() {
    eprintln!("index checksum mismatch, aborting");
    std::process::abort();
}
