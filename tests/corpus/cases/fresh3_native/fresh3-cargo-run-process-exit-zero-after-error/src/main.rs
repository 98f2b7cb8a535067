use std::fs;
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cfg = match fs::read_to_string("app.toml") {
        Ok(c) => c,
        Err(e) => { eprintln!("error: failed to read config app.toml: {e}"); return Ok(()); }
    };
    println!("loaded {} bytes", cfg.len());
    Ok(())
}
