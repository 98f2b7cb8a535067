import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.logging.Logger;

public class Report {
    static final Logger LOG = Logger.getLogger("report");
    static String export() {
        throw new IllegalStateException("export template 'monthly.ftl' not found");
    }
    public static void main(String[] args) {
        CompletableFuture.supplyAsync(Report::export)
            .exceptionally(e -> { LOG.log(Level.SEVERE, "export failed", e); return null; })
            .join();
        System.out.println("report job finished");
    }
}
