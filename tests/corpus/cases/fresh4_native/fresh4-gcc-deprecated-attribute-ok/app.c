#include <stdio.h>
__attribute__((deprecated("use open_v2"))) static int open_v1(void) { return 3; }
int main(void) { printf("fd=%d\n", open_v1()); return 0; }
