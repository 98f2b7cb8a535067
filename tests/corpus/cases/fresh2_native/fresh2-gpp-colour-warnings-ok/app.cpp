#include <vector>
#include <cstdio>
int count(std::vector<int> v, int unused) { int n = 0; for (int i = 0; i < v.size(); i++) n++; return n; }
int main() { std::printf("count=%d\n", count({1, 2, 3}, 0)); }
