int f12(int a, int b) { int unused12; return a; }
