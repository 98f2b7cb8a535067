int main(void) { return undefined_fn(1); }
