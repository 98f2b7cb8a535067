pub fn parse_duration(s: &str) -> Option<u64> {
    let (n, unit) = s.split_at(s.len() - 1);
    let n: u64 = n.parse().ok()?;
    match unit { "s" => Some(n), "m" => Some(n * 60), "h" => Some(n * 3600), _ => None }
}
#[cfg(test)]
mod tests {
    use super::*;
    #[test] fn minutes() { assert_eq!(parse_duration("5m"), Some(300)); }
    #[test] fn millis() { assert_eq!(parse_duration("250ms"), Some(0)); }
}
