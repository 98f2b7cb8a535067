pub fn parse(s: &str) -> Result<u32, String> { s.parse().map_err(|e| format!("{e}")) }
#[cfg(test)]
mod t {
    #[test]
    fn rejects_empty() {
        let e = super::parse("").unwrap_err();
        eprintln!("Error: unexpected end of input ({e})");
        assert!(e.contains("empty"));
    }
}
