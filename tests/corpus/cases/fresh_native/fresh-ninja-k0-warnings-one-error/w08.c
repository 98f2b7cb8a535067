int f8(int a, int b) { int unused8; return a; }
