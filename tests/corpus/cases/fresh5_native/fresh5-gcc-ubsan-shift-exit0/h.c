#include <stdio.h>
int main(void) {
  int bits = 33;
  unsigned int h = 1u << bits;
  printf("hash=%u\n", h);
  return 0;
}
