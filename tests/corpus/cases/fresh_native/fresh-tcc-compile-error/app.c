struct pt { int x; };
int main(void) { struct pt p; p.y = 1; return p.x; }
