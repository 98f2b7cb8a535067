#include <stdlib.h>
void f(void) { char *p = malloc(10); if (p) p[0] = 'a'; }
