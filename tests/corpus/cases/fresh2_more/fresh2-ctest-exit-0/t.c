#include <stdio.h>
#include <stdlib.h>
int main(int c, char **v) { int n = atoi(v[1]); if (n * n != 1) { printf("expected 1, got %d\n", n * n); return 1; } return 0; }
