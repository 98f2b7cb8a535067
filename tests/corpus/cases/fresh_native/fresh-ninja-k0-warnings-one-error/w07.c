int f7(int a, int b) { int unused7; return a; }
