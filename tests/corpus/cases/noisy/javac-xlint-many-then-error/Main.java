class Main { int f() { return missing; } }
