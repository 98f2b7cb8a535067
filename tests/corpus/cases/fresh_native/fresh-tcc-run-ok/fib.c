#include <stdio.h>
int main(void) { long a = 0, b = 1; for (int i = 0; i < 30; i++) { long t = a + b; a = b; b = t; } printf("fib30=%ld\n", a); return 0; }
