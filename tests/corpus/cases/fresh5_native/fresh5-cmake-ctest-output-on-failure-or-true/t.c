#include <stdio.h>
#include <stdlib.h>
int main(int c, char **v) { int n = atoi(v[1]); if (n == 2) { fprintf(stderr, "expected 4, got %d\n", n * 3); return 1; } puts("ok"); return 0; }
