#include <stdlib.h>
#include <stdio.h>
int main(void) { int *a = calloc(4, sizeof(int)); a[1] = 2; printf("%d\n", a[1]); free(a); return 0; }
