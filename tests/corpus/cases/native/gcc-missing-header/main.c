#include <zlib_corpus_missing.h>
int main(void) { return 0; }
