use std::{error::Error, fmt, fs};

#[derive(Debug)]
struct ConfigError { path: String, source: std::io::Error }
impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, "cannot load config {}", self.path) }
}
impl Error for ConfigError {
    fn source(&self) -> Option<&(dyn Error + 'static)> { Some(&self.source) }
}

fn run(path: &str) -> Result<(), ConfigError> {
    let text = fs::read_to_string(path).map_err(|e| ConfigError { path: path.into(), source: e })?;
    println!("loaded {} bytes", text.len());
    Ok(())
}

fn main() {
    let path = std::env::args().nth(1).unwrap_or_default();
    if let Err(e) = run(&path) {
        eprintln!("Error: {e}");
        let mut src = e.source();
        while let Some(s) = src {
            eprintln!("Caused by: {s}");
            src = s.source();
        }
    }
}
