#include <stdio.h>
int sign(int v) {
    if (v < 0) return -1;
    if (v > 0) return 1;
    return 0;
}
int main(void) {
    printf("%d\n", sign(5));
    return 0;
}
