use std::panic;

fn thumbnail_plugin(name: &str) -> String {
    if name.ends_with(".tiff") {
        panic!("plugin 'thumbnail' crashed: unsupported format for {name}");
    }
    format!("thumb-{name}")
}

fn main() {
    for f in ["a.png", "b.tiff"] {
        let r = panic::catch_unwind(|| thumbnail_plugin(f));
        match r {
            Ok(t) => println!("{f}: {t}"),
            Err(_) => {
                eprintln!("error: thumbnail plugin failed for {f}, using placeholder");
                println!("{f}: placeholder.png");
            }
        }
    }
    println!("thumbnails: 2/2 written");
}
