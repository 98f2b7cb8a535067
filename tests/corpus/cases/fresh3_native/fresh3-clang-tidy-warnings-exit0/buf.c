#include <string.h>
#include <stdlib.h>
char *dup_name(const char *src) {
    char *out = malloc(8);
    strcpy(out, src);
    return out;
}
int main(void) {
    char *p = dup_name("corpus");
    free(p);
    return p[0];
}
