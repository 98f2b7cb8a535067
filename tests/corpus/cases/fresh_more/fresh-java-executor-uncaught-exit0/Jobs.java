import java.util.concurrent.*;
import java.util.*;

public class Jobs {
    public static void main(String[] args) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        Map<String, Integer> stock = new ConcurrentHashMap<>(Map.of("apple", 3));
        for (String item : List.of("apple", "pear")) {
            pool.execute(() -> {
                int left = stock.get(item) - 1;
                stock.put(item, left);
                System.out.println("reserved " + item + ", left " + left);
            });
        }
        pool.shutdown();
        pool.awaitTermination(5, TimeUnit.SECONDS);
        System.out.println("all reservations processed");
    }
}
