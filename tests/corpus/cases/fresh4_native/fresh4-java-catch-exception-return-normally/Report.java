public class Report {
  static void query() throws Exception { throw new java.sql.SQLException("relation \"orders\" does not exist", "42P01"); }
  public static void main(String[] a) {
    try { query(); new java.io.FileWriter("report.csv").close(); }
    catch (Exception e) { e.printStackTrace(); }
  }
}
