public class Main {
  public static void main(String[] a) {
    int x = "five";
    System.out.println(x)
  }
}
