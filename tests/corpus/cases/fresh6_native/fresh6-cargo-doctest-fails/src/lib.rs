/// Converts kilometres to miles.
///
/// ```
/// assert_eq!(units::km_to_miles(10.0), 6.2);
/// ```
pub fn km_to_miles(km: f64) -> f64 {
    km * 0.621371
}
