fn depth(n: u64, pad: [u8; 1024]) -> u64 { if n == 0 { pad[0] as u64 } else { 1 + depth(n - 1, pad) } }
fn main() { println!("{}", depth(std::hint::black_box(10_000_000), [0; 1024])); }
