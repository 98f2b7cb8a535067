#include <stdio.h>
int main(void){puts("app built and running");return 0;}
