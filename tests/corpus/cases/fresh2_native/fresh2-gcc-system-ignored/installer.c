#include <stdio.h>
#include <stdlib.h>
int main(void) {
  puts("copying files");
  system("./migrate.sh");
  puts("installation complete");
  return 0;
}
