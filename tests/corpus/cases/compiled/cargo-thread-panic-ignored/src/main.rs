use std::thread;
fn main() {
    let h = thread::spawn(|| {
        let v: Vec<u8> = Vec::new();
        println!("uploading {} bytes", v[10]);
    });
    let _ = h.join();
    println!("main: done");
}
