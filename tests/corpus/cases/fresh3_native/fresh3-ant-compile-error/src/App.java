public class App {
  public static void main(String[] a) {
    System.out.println(greet("ant"));
  }
}
