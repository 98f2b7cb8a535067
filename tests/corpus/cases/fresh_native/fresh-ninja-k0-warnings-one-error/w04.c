int f4(int a, int b) { int unused4; return a; }
