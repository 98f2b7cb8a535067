int f2(int a, int b) { int unused2; return a; }
