use std::fs;
fn main() {
    match fs::read_to_string("input.csv") {
        Ok(s) => println!("imported {} lines", s.lines().count()),
        Err(e) => eprintln!("error: could not read input.csv: {e}"),
    }
}
