import java.util.*;
import java.util.concurrent.*;

public class Sync {
    static int price(String sku) {
        throw new IllegalStateException("pricing service returned 503 for " + sku);
    }
    public static void main(String[] a) {
        List<CompletableFuture<Integer>> fs = new ArrayList<>();
        for (String s : List.of("A1", "B2")) {
            fs.add(CompletableFuture.supplyAsync(() -> price(s)).exceptionally(e -> {
                System.err.println("WARN price lookup failed: " + e);
                return null;
            }));
        }
        fs.forEach(CompletableFuture::join);
        System.out.println("sync complete");
    }
}
