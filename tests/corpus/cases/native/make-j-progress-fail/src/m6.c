int f6(int x) { int unused6; return x * 6; }
