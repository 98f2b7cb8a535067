pub fn parse_level(s: &str) -> u8 {
    let unused = 0;
    match s.parse::<u8>() {
        Ok(n) if n <= 5 => n,
        other => {
            eprintln!("error: invalid level {s:?} ({other:?}), defaulting to 1");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn valid() { assert_eq!(parse_level("3"), 3); }
    #[test]
    fn invalid_defaults() { assert_eq!(parse_level("9"), 1); assert_eq!(parse_level("x"), 1); }
}
