#include <stdlib.h>
#include <string.h>
struct cfg { char *name; int port; };
struct cfg *load(const char *s) {
    struct cfg *c = NULL;
    if (s && *s) {
        c = malloc(sizeof *c);
        c->name = strdup(s);
    }
    c->port = 8080;
    return c;
}
