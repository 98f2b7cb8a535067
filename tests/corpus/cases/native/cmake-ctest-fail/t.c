#include <stdio.h>
#include <stdlib.h>
int main(int c, char **v) { int r = atoi(v[1]); if (r) fprintf(stderr, "expected 4, got 5\n"); return r; }
