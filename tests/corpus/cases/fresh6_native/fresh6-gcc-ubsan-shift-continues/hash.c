#include <stdio.h>
unsigned hash(unsigned x, int s){return (x << s) | (x >> (32 - s));}
int main(void){printf("h=%u\n", hash(7u, 0));return 0;}
