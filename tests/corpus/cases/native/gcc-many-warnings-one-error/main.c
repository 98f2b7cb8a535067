#include <stdio.h>
static int helper0(int x) { int tmp0; return x; }
static int helper1(int x) { int tmp1; return x; }
static int helper2(int x) { int tmp2; return x; }
static int helper3(int x) { int tmp3; return x; }
static int helper4(int x) { int tmp4; return x; }
static int helper5(int x) { int tmp5; return x; }
static int helper6(int x) { int tmp6; return x; }
static int helper7(int x) { int tmp7; return x; }
static int helper8(int x) { int tmp8; return x; }
static int helper9(int x) { int tmp9; return x; }
static int helper10(int x) { int tmp10; return x; }
static int helper11(int x) { int tmp11; return x; }
int main(void) { int r = helper0(1) + missing_fn(2); return r; }
