public class Main { static int f(int n) { return f(n + 1) + 1; } public static void main(String[] a) { System.out.println(f(0)); } }
