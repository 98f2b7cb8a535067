#include <math.h>
#include <stdio.h>
int main(void){printf("%f\n", sqrt(2.0));return 0;}
