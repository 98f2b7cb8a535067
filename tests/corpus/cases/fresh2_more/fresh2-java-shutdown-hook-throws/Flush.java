public class Flush {
    public static void main(String[] args) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            throw new IllegalStateException("flush of 120 buffered events failed: disk quota exceeded");
        }));
        System.out.println("processed 120 events");
    }
}
