#include <stdlib.h>
#include <stdio.h>
int main(void) {
    int *p = malloc(sizeof *p);
    *p = 42;
    printf("value %d\n", *p);
    free(p);
    return 0;
}
