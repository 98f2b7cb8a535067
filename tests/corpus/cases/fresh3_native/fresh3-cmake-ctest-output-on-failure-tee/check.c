#include <stdio.h>
#include <stdlib.h>
int main(int c, char **v) { int n = atoi(v[1]); if (n < 0) { fprintf(stderr, "parse error: negative value %d\n", n); return 1; } puts("ok"); return 0; }
