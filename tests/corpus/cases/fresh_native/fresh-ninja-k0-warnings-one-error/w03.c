int f3(int a, int b) { int unused3; return a; }
