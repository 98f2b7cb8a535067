use std::fmt::Write;
pub fn describe(code: u8) -> &'static str { let unused_err = code; match code { 1 => "fatal", _ => "recoverable error" } }
