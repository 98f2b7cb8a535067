int f6(int a, int b) { int unused6; return a; }
