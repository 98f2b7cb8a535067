import java.util.*;
public class Main {
  public static void main(String[] a) {
    List xs = new ArrayList();
    xs.add(new Integer(5));
    System.out.println("items=" + xs.size());
  }
}
