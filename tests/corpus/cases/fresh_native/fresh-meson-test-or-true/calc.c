#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: calc A B SUM\n"); return 2; }
    int a = atoi(argv[1]), b = atoi(argv[2]), want = atoi(argv[3]);
    if (a + b != want) { fprintf(stderr, "calc: %d + %d = %d, expected %d\n", a, b, a + b, want); return 1; }
    printf("ok %d\n", a + b);
    return 0;
}
