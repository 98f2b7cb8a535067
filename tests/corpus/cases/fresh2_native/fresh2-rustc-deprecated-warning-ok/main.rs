#[deprecated(since = "0.3.0", note = "use checksum_v2")]
fn checksum(d: &[u8]) -> u32 { d.iter().map(|b| *b as u32).sum() }
fn main() { println!("checksum={}", checksum(b"abc")); }
