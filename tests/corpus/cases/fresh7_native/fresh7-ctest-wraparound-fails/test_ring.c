#include <stdio.h>
#include <string.h>
#define CAP 4
static int buf[CAP], head, tail, count;
static void push(int v) { buf[tail] = v; tail = (tail + 1) % CAP; count++; }
static int pop(void) { int v = buf[head]; head = (head + 1) % CAP; count--; return v; }
int main(int argc, char **argv) {
    if (!strcmp(argv[1], "push_pop")) { push(1); return pop() == 1 ? 0 : 1; }
    if (!strcmp(argv[1], "wraparound")) {
        for (int i = 0; i < 6; i++) push(i);
        int first = pop();
        printf("expected oldest element 2, got %d\n", first);
        return first == 2 ? 0 : 1;
    }
    return count == 0 ? 0 : 1;
}
