pub fn ratio(a: u32, b: u32) -> u32 {
    if b == 0 {
        panic!("divisor must be non-zero (got a={a}, b={b})");
    }
    a / b
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn divides() { assert_eq!(ratio(10, 2), 5); }
    #[test]
    #[should_panic(expected = "divisor must be non-zero")]
    fn rejects_zero() { ratio(1, 0); }
}
