int f11(int a, int b) { int unused11; return a; }
