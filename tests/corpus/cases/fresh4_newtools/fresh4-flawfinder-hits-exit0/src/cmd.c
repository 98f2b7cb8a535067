#include <string.h>
#include <stdlib.h>
void run(const char *user) { char buf[16]; strcpy(buf, user); system(buf); }
