#include <stdio.h>
int main(void) {
    int unused;
    char buf[4];
    printf("%d\n", 3.5);
    return 0;
}
