#include <cstdio>
[[deprecated("use area2")]] int area(int w) { return w * w; }
int main() { std::printf("%d\n", area(3)); }
