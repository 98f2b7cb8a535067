int c(void) { return undefined_c; }
