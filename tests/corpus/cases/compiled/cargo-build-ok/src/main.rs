fn main() {
    let v: Vec<u32> = (1..=4).collect();
    println!("sum={}", v.iter().sum::<u32>());
}
