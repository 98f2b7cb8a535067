#include <stdlib.h>
#include <stdio.h>
int main(void) { int *p = malloc(16 * sizeof *p); for (int i = 0; i < 16; i++) p[i] = i; printf("sum=%d\n", p[15]); free(p); return 0; }
