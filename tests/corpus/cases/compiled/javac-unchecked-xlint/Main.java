import java.util.*;
public class Main {
  public static void main(String[] a) {
    List raw = new ArrayList();
    raw.add("x");
    List<String> s = raw;
    System.out.println(s.get(0));
  }
}
