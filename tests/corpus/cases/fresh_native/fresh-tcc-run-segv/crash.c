#include <string.h>
int main(void) { char *p = 0; strcpy(p, "boom"); return 0; }
