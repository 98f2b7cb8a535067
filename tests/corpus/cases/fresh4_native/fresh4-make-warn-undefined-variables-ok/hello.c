int hello(void) { return 0; }
