public class Walk { static int depth(int n) { return depth(n + 1) + 1; } public static void main(String[] a) { System.out.println(depth(0)); } }
