#include <stdio.h>
int clamp(int v, int lo, int hi) {
    if (v < lo) return lo;
    if (v > hi) return hi;
    return v;
}
int sign(int v) {
    if (v < 0) return -1;
    if (v > 0) return 1;
    return 0;
}
int main(void) {
    printf("%d\n", clamp(5, 0, 10));
    return 0;
}
