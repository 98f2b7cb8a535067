fn main() {
    let mut n: u8 = 250;
    for _ in 0..10 { n += 1; }
    println!("{n}");
}
