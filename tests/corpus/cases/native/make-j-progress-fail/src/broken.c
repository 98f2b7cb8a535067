int g(void) { return nope; }
