#include <stdlib.h>
#include <stdio.h>
int main(void) {
    char *a = malloc(32), *b = malloc(32);
    puts("evicting entries");
    free(a); free(b); free(a);
    puts("done");
    return 0;
}
