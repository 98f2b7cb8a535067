#include <string.h>
#include <stdio.h>
int main(void) {
    char name[8];
    strcpy(name, "a-much-too-long-user-name");
    printf("%s\n", name);
    return 0;
}
