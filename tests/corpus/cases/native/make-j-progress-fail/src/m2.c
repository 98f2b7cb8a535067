int f2(int x) { int unused2; return x * 2; }
