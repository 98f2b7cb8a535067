#include <stdio.h>
#include <string.h>
struct cfg { char *name; };
int main(void) {
    struct cfg *c = NULL;
    printf("loading config\n");
    fflush(stdout);
    return (int)strlen(c->name);
}
