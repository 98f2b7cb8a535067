#include <stdio.h>
int main(void) { printf("%d\n", undefined_total); return 0; }
