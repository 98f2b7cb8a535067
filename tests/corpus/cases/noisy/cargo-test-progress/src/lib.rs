#[test]
fn one() { assert!(true); }
