#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(void) { char *p = malloc(64); strcpy(p, "cache entry"); p = 0; puts("done"); return 0; }
