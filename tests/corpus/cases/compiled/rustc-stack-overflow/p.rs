fn depth(n: u64, v: &mut Vec<[u8; 1024]>) -> u64 { let a = [n as u8; 1024]; v.len() as u64 + depth(n + 1, v) + a[0] as u64 }
fn main() { let mut v = Vec::new(); println!("{}", depth(0, &mut v)); }
