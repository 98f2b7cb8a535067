#include <stdio.h>
#include <math.h>
int main(int c, char **v){ printf("%f %s\n", sqrt((double)c), v[0]); return 0; }
