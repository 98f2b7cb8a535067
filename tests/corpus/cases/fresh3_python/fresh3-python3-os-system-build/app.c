#include <stdio.h>
int main(void) {
    printf("%d\n", compute(3));
    return 0
}
