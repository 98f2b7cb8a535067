#include <stdio.h>
void greet(const char *name) {
    printf("Grüße aus Köln, %s!\n", nmae);
}
