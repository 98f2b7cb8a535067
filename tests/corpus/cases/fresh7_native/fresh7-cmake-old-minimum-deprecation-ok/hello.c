#include <stdio.h>
int main(void){puts("hello from cmake");return 0;}
