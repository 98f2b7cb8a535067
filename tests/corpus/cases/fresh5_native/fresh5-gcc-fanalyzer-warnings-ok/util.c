#include <stdio.h>
int count(const char *s, int unused) {
  int n = 0;
  for (int i = 0; s[i]; i++) n++;
  return n;
}
int main(void) {
  unsigned int len = 3;
  int n = count("abc", 0);
  if (n == len) printf("length ok: %d\n", n);
  return 0;
}
