#include <stdio.h>
void greet(void) { printf("Grüße aus München\n"); int n = undefined_count; (void)n; puts("été"); }
