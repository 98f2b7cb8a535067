#include <stdio.h>
int main(void) { int n; printf("café crème\n"); return 0; }
