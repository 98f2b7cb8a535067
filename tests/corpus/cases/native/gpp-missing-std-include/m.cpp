#include <iostream>
int main() { std::strin s = "a"; std::cout << s.size(); }
