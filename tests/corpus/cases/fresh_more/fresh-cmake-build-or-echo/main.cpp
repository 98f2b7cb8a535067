#include <vector>
int main() { std::vector<int> v{1, 2}; return v.size() + missing_fn(); }
