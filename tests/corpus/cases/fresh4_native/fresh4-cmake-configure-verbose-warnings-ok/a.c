#include <stdio.h>
int main(void) { puts("app ok"); return 0; }
