#include <stdexcept>
int main() { throw std::runtime_error("invalid state: queue empty"); }
