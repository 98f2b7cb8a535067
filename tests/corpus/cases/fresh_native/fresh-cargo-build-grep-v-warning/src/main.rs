fn port() -> u16 {
    "8080"
}

fn main() {
    let unused = 1;
    println!("{}", port());
}
