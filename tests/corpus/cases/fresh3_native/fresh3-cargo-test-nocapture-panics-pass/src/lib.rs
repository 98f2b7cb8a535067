pub fn parse_port(s: &str) -> u16 { s.parse().expect("invalid port") }

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn parse_error_panics_with_message() { let _ = std::panic::catch_unwind(|| parse_port("x")).unwrap_err(); }
    #[test]
    #[should_panic(expected = "invalid port")]
    fn failure_on_garbage() { parse_port("garbage"); }
    #[test]
    #[ignore]
    fn slow_network_test() {}
    #[test]
    fn ok_port() { assert_eq!(parse_port("8080"), 8080); }
}
