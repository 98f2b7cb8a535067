#include <iostream>
#include <iterator>
struct Counter : std::iterator<std::input_iterator_tag, int> { int v = 0; };
int main() { int unused = 5; Counter c; std::cout << "counter=" << c.v << std::endl; }
