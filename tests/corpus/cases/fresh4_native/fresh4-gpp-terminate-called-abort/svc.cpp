#include <stdexcept>
#include <cstdio>
void shutdown() noexcept { throw std::runtime_error("flush failed: disk full"); }
int main() { std::puts("serving"); shutdown(); }
