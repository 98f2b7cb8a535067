#include "café.h"
int main(void) { return 0; }
