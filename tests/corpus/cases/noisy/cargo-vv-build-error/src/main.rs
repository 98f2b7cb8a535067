fn main() { let x: u32 = "seven"; }
