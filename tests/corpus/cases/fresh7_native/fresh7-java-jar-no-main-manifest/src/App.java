public class App {
  public static void main(String[] a) { System.out.println("app 1.0 ready"); }
}
