public class Check { public static void main(String[] a) { int retries = -1; assert retries >= 0 : "retries must be non-negative"; } }
