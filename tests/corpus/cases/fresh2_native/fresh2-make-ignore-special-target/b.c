int b(void) { return missing_symbol + 1; }
