#include <stdio.h>
#include <limits.h>
int main(int argc, char **argv) { int x = INT_MAX; x += argc; printf("%d\n", x); return 0; }
