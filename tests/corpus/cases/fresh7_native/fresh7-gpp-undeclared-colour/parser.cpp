#include <string>
int parse_port(const std::string& s) {
    int value = std::stoi(s);
    return vaule > 0 ? value : 8080;
}
