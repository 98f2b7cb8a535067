void greet(const char *);
int main(void) { greet("scons"); return 0; }
