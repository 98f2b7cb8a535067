import java.util.concurrent.atomic.AtomicBoolean;

public class Batch {
    public static void main(String[] args) throws Exception {
        AtomicBoolean done = new AtomicBoolean(false);
        for (int attempt = 1; attempt <= 2 && !done.get(); attempt++) {
            final int a = attempt;
            Thread t = new Thread(() -> {
                if (a == 1) throw new IllegalStateException("stale connection on attempt " + a);
                done.set(true);
            }, "batch-" + attempt);
            t.start();
            t.join();
            if (!done.get()) System.err.println("WARN batch attempt " + a + " failed, retrying");
        }
        System.out.println(done.get() ? "batch complete" : "batch failed");
        System.exit(done.get() ? 0 : 1);
    }
}
