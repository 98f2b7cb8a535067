fn main() {
    let s = String::from("a");
    let t = s;
    println!("{}", s);
    drop(t);
}
