#include <stdio.h>
static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
int main(void) {
    if (add(2, 3) != 5) return 1;
    if (sub(5, 3) != 2) return 1;
    puts("self-test passed");
    return 0;
}
