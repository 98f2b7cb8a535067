#include <stdio.h>
int main(int argc, char **argv) {
    int d = argc - 1;
    printf("%d\n", 100 / d);
    return 0;
}
