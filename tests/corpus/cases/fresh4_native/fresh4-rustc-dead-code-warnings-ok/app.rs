#[derive(Debug)]
enum AppError { NotFound, Timeout }
fn check() -> Result<(), AppError> { Err(AppError::Timeout) }
fn main() {
    check();
    println!("started");
}
