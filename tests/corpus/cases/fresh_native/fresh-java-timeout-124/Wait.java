import java.util.concurrent.*;
public class Wait {
  public static void main(String[] a) throws Exception {
    System.out.println("waiting for workers");
    new CountDownLatch(1).await();
  }
}
