int f0(int x) { int unused0; return x * 0; }
