int f13(int a, int b) { int unused13; return a; }
