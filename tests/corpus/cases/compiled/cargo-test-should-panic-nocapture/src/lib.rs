pub fn parse(s: &str) -> u8 {
    s.parse().expect("not a valid port byte")
}
#[cfg(test)]
mod tests {
    #[test]
    #[should_panic(expected = "not a valid port byte")]
    fn rejects_text() { super::parse("abc"); }
    #[test]
    fn parses() { assert_eq!(super::parse("7"), 7); }
}
