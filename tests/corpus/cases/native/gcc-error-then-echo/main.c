int compute(int);
int main(void) { return compute(2); }
