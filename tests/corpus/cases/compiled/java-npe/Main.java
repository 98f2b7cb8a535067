import java.util.*;
public class Main {
  static Map<String, String> cfg = new HashMap<>();
  static int port() { return Integer.parseInt(cfg.get("port").trim()); }
  public static void main(String[] a) { System.out.println(port()); }
}
