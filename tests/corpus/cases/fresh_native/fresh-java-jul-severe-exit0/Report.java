import java.io.*;
import java.util.logging.*;

public class Report {
    private static final Logger LOG = Logger.getLogger("report");
    public static void main(String[] args) {
        try (Writer w = new FileWriter("/nonexistent-dir/report.csv")) {
            w.write("id,total\n");
        } catch (IOException e) {
            LOG.log(Level.SEVERE, "failed to write report", e);
        }
        System.out.println("report job finished");
    }
}
