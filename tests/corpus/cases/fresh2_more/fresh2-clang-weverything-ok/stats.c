#include <stdio.h>
int mean(int *xs, int n) { long s = 0; for (int i = 0; i < n; i++) s += xs[i]; return s / n; }
int main() { int xs[] = {2, 4, 6}; printf("mean=%d\n", mean(xs, 3)); }
