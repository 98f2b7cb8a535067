#include <vector>
#include <cstdio>
int main() {
  std::vector<int> v{1, 2, 3};
  int unused = 0;
  int n = 0;
  for (int i = 0; i < v.size(); i++) n += v[i];
  std::printf("count=%d\n", n);
}
