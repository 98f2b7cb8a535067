public class Main {
  public static void main(String[] a) throws Exception {
    Thread t = new Thread(() -> { throw new IllegalStateException("export failed: disk quota exceeded"); });
    t.start();
    t.join();
    System.out.println("main finished");
  }
}
