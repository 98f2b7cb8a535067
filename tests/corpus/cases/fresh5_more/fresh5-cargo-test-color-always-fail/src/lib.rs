#[cfg(test)]
mod t {
    #[test]
    fn rounding() { assert_eq!(0.1f64 + 0.2, 0.3); }
}
