fn main() { for i in 0..30 { println!("cargo:warning=generated binding {i} uses a deprecated type"); } }
