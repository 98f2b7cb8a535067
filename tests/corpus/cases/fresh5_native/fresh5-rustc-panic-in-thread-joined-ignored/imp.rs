use std::thread;
fn main() {
    let h = thread::spawn(|| {
        let rows: Vec<&str> = vec!["1,alice", "2,bob", "x,carol"];
        for r in rows {
            let id: u32 = r.split(',').next().unwrap().parse().unwrap();
            println!("imported {id}");
        }
    });
    let _ = h.join();
    println!("import complete");
}
