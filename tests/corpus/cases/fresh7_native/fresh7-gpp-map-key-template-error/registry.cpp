#include <map>
#include <string>
struct Key { std::string ns; int id; };
int main() {
    std::map<Key, std::string> reg;
    reg[{"core", 1}] = "logger";
    return reg.size() == 1 ? 0 : 1;
}
