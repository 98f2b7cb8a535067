#include <thread>
#include <stdexcept>
#include <cstdio>
int main() {
  std::puts("starting worker");
  std::thread t([] { throw std::runtime_error("queue closed unexpectedly"); });
  t.join();
}
