#include <stdio.h>
static int count(const int *a, int n, int unused) { int c = 0; for (unsigned i = 0; i < n; i++) c += a[i] > 0; return c; }
int main(void) { int a[] = {1, -2, 3}; printf("positive=%d\n", count(a, 3, 0)); return 0; }
