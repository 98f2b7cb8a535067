import java.util.logging.*;
public class Main {
  public static void main(String[] a) {
    Logger log = Logger.getLogger("sync");
    int ok = 0;
    for (int i = 0; i < 3; i++) {
      if (i == 0) log.log(Level.SEVERE, "attempt 1 failed, retrying", new java.io.IOException("connection reset"));
      else ok++;
    }
    System.out.println("synced after retry, batches=" + ok);
  }
}
