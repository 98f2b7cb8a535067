fn legacy_banner() -> &'static str { "v0" }

fn main() {
    let retries = 3;
    println!("hello from greeter");
}
