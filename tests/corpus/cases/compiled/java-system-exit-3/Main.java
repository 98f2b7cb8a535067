public class Main { public static void main(String[] a) { System.err.println("usage: Main <input> <output>"); System.exit(3); } }
