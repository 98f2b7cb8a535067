#include <stdexcept>
#include <cstdio>
int main() { std::puts("loading config"); throw std::runtime_error("config.yaml: missing key 'listen'"); }
