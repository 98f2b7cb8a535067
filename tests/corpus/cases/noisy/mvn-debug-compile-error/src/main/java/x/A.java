package x;
public class A { int f() { return nope; } }
