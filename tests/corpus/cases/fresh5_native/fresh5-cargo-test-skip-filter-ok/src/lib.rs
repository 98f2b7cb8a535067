pub fn balance(entries: &[(i64, bool)]) -> i64 {
    entries.iter().map(|(amt, credit)| if *credit { *amt } else { -*amt }).sum()
}

pub fn parse_amount(s: &str) -> Result<i64, String> {
    let s = s.trim();
    let (whole, frac) = s.split_once('.').unwrap_or((s, "0"));
    let w: i64 = whole.parse().map_err(|e| format!("bad amount {s:?}: {e}"))?;
    let f: i64 = format!("{frac:0<2}")[..2].parse().map_err(|e| format!("bad cents {s:?}: {e}"))?;
    Ok(w * 100 + f)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn balance_mixed() { assert_eq!(balance(&[(500, true), (200, false)]), 300); }
    #[test]
    fn parse_simple() { assert_eq!(parse_amount("12.5"), Ok(1250)); }
    #[test]
    fn parse_negative() { assert_eq!(parse_amount("-0.50"), Ok(-50)); }
}
