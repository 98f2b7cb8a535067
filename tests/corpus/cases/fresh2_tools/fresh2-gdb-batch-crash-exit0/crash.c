#include <stdio.h>
#include <string.h>
struct rec { char *name; };
static size_t name_len(struct rec *r) { return strlen(r->name); }
int main(void) {
    struct rec recs[2] = {{"ok"}, {NULL}};
    for (int i = 0; i < 2; i++) printf("len %zu\n", name_len(&recs[i]));
    return 0;
}
