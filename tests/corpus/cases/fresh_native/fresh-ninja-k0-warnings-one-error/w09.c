int f9(int a, int b) { int unused9; return a; }
