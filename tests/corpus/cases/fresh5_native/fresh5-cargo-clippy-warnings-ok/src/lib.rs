pub fn len_of(v: &Vec<String>) -> usize {
    let n = v.len();
    return n;
}
