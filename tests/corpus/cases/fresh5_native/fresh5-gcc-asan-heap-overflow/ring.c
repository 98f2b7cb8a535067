#include <stdlib.h>
#include <stdio.h>
int main(void) {
  int *b = malloc(8 * sizeof *b);
  for (int i = 0; i <= 8; i++) b[i] = i;
  printf("%d\n", b[0]);
  free(b);
  return 0;
}
