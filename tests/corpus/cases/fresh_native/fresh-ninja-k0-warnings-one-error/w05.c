int f5(int a, int b) { int unused5; return a; }
