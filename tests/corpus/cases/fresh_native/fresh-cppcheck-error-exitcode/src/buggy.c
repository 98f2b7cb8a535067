#include <stdlib.h>
#include <string.h>
int first(const int *v) {
    int buf[4];
    for (int i = 0; i <= 4; i++) buf[i] = v[i];
    return buf[0];
}
char *dup(const char *s) {
    char *p = malloc(strlen(s));
    strcpy(p, s);
    return p;
}
int deref(void) {
    int *p = NULL;
    return *p;
}
