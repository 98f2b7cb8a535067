#include <stdio.h>
int main(int argc, char **argv) { int unused; printf("app ok\n"); return 0; }
