public class App {
  public static void main(String[] a) {
    Integer n = new Integer(5);
    System.out.println(n);
  }
}
