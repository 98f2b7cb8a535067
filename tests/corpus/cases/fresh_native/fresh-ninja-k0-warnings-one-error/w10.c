int f10(int a, int b) { int unused10; return a; }
