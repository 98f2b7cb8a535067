int b(void) { int *p = 3.5; return *p; }
