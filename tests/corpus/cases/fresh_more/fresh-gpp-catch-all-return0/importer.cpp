#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>
int parse_qty(const std::string& s) { return std::stoi(s); }
int main() {
    try {
        std::vector<std::string> qtys{"3", "5", "n/a"};
        int total = 0;
        for (auto& q : qtys) total += parse_qty(q);
        std::cout << "imported total=" << total << "\n";
    } catch (const std::exception& e) {
        std::cerr << "fatal: import aborted: " << e.what() << "\n";
    }
    return 0;
}
