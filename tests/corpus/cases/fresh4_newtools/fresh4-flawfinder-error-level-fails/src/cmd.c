#include <string.h>
void run(const char *user) { char buf[16]; strcpy(buf, user); }
