public class Main {
  public static void main(String[] a) {
    int s = 0;
    for (int i = 1; i <= 4; i++) s += i;
    System.out.println("sum=" + s);
  }
}
