#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) {
    char *p = malloc(16);
    strcpy(p, "fifteen chars!!");
    int *a = malloc(4 * sizeof(int));
    printf("%c %d\n", p[0], a[5]);
    free(a);
    return 0;
}
