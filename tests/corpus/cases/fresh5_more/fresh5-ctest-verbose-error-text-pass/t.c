#include <stdio.h>
int write_block(int full) { if (full) { fprintf(stderr, "ERROR: simulated disk full (ENOSPC)\n"); return -1; } return 0; }
int main(void) { return write_block(1) == -1 && write_block(0) == 0 ? 0 : 1; }
