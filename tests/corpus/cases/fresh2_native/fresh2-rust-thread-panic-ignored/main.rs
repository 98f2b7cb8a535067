use std::thread;
fn main() {
    let h = thread::spawn(|| {
        let docs: Vec<&str> = vec![];
        println!("indexing {} documents", docs.len());
        let first = docs[0];
        println!("first: {first}");
    });
    let _ = h.join();
    println!("indexer finished");
}
