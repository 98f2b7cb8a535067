int f0(int a, int b) { int unused0; return a; }
