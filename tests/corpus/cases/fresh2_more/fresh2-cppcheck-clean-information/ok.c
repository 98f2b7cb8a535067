#include <stdio.h>
int main(void) { const int xs[3] = {1, 2, 3}; int s = 0; for (int i = 0; i < 3; i++) s += xs[i]; printf("%d\n", s); return 0; }
