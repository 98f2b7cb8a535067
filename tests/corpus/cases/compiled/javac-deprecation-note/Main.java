import java.util.Date;
public class Main {
  public static void main(String[] a) {
    Date d = new Date(2024, 1, 1);
    System.out.println(d.getYear());
  }
}
