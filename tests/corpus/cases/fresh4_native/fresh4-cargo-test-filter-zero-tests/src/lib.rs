pub fn parse(s: &str) -> Option<u32> { s.trim().parse().ok() }
#[cfg(test)]
mod tests {
    #[test]
    fn parse_config_rejects_negative() { assert_eq!(super::parse("-1"), Some(0)); }
}
