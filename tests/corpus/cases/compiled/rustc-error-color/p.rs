fn main() { let x: u8 = 300; }
