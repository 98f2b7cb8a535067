fn main() {
    let v = vec![1, 2, 3];
    let first = &v[0];
    let mut v = v;
    v.push(4);
    drop(v);
    println!("{first}");
}
