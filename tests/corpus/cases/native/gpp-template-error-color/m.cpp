#include <map>
#include <string>
int main() { std::map<std::string, int> m; m.insert(42); }
