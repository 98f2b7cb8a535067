#include <stdlib.h>
#include <string.h>
char *dup(const char *s) { char *p = malloc(strlen(s) + 1); strcpy(p, s); return p; }
