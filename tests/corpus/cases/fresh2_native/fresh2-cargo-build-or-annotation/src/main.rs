fn main() {
    let port: u16 = "8080";
    println!("{port}");
}
