#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int *v = malloc(8 * sizeof(int));
    for (int i = 0; i < 8; i++) v[i] = i;
    long s = 0;
    for (int i = 0; i <= 8; i++) s += v[i];
    printf("checksum computed: %ld\n", s);
    free(v);
    return 0;
}
