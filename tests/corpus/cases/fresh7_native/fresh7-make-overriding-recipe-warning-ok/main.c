#include <stdio.h>
int main(void){puts("app built");return 0;}
