public class Sum {
  public static void main(String[] a) {
    int s = 0; for (String x : a) s += Integer.parseInt(x);
    System.out.println("sum=" + s);
  }
}
