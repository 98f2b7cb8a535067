fn helper0() { let unused0 = 0; }
fn helper1() { let unused1 = 1; }
fn helper2() { let unused2 = 2; }
fn helper3() { let unused3 = 3; }
fn helper4() { let unused4 = 4; }
fn helper5() { let unused5 = 5; }
fn helper6() { let unused6 = 6; }
fn helper7() { let unused7 = 7; }
fn helper8() { let unused8 = 8; }
fn helper9() { let unused9 = 9; }
fn helper10() { let unused10 = 10; }
fn helper11() { let unused11 = 11; }
fn helper12() { let unused12 = 12; }
fn helper13() { let unused13 = 13; }
fn helper14() { let unused14 = 14; }
fn main() {
    let s: String = 5;
}
