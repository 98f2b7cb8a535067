import java.util.concurrent.*;
import java.nio.file.*;

public class Export {
    public static void main(String[] args) throws Exception {
        ExecutorService ex = Executors.newFixedThreadPool(2);
        Future<?> f = ex.submit(() -> {
            String region = System.getenv("EXPORT_REGION");
            Files.writeString(Path.of("out.csv"), region.toUpperCase() + "\n");
            return null;
        });
        ex.shutdown();
        ex.awaitTermination(5, TimeUnit.SECONDS);
        System.out.println("export finished");
    }
}
