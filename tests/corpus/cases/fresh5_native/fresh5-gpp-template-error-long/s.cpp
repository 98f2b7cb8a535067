#include <algorithm>
#include <list>
void f() { std::list<int> l{3, 1, 2}; std::sort(l.begin(), l.end()); }
