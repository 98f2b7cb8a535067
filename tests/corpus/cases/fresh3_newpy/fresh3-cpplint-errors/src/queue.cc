#include <vector>
#include <string>
using namespace std;
class Queue {
  public:
  Queue(int n) { cap=n; }
  void push(string s){ if(items.size()<cap) items.push_back(s); }
  private:
  vector<string> items; unsigned cap;
};
