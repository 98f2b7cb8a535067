import java.util.concurrent.*;
public class Batch {
    public static void main(String[] a) throws Exception {
        ExecutorService ex = Executors.newFixedThreadPool(2);
        ex.submit(() -> {
            System.err.println("SEVERE: invoice export failed: java.sql.SQLException: Connection refused");
            throw new IllegalStateException("export aborted");
        });
        ex.shutdown();
        ex.awaitTermination(5, TimeUnit.SECONDS);
        System.out.println("batch done");
    }
}
