int main(void) { return undefined_fn(); }
