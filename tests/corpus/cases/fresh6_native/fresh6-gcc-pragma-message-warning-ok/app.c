#include <stdio.h>
#warning "TODO: remove legacy CRC path before 2.0"
#pragma message("building with legacy CRC fallback")
int main(void){puts("crc ok");return 0;}
