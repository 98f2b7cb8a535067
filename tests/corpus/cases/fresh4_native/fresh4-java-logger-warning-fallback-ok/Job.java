import java.nio.file.*;
import java.util.logging.*;
public class Job {
  static final Logger LOG = Logger.getLogger("job");
  public static void main(String[] a) {
    String cfg;
    try { cfg = Files.readString(Path.of("override.properties")); }
    catch (java.io.IOException e) { LOG.log(Level.WARNING, "override not found, using defaults", e); cfg = "threads=4"; }
    System.out.println("job complete with " + cfg);
  }
}
