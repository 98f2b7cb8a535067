#include <assert.h>
#include <stdio.h>
int parse(const char *s) { return s[0] == '4' ? 4 : -1; }
int main(void) {
    int v = parse("x");
    assert(v >= 0 && "parse failed");
    printf("%d\n", v);
    return 0;
}
