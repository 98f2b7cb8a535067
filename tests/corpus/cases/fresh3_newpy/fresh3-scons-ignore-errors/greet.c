#include <stdio.h>
void greet(const char *w) { printf("hello %s\n", w) }
