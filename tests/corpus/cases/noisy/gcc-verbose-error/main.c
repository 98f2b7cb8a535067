int main(void) { return missing_symbol; }
