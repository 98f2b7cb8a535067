import java.nio.file.*;
public class Main {
  public static void main(String[] a) {
    try {
      String s = Files.readString(Path.of("input.csv"));
      System.out.println(s.length());
    } catch (Exception e) {
      e.printStackTrace();
    }
    System.out.println("report written");
  }
}
