int f1(int a, int b) { int unused1; return a; }
