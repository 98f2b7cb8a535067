import java.net.*;
import java.nio.file.*;
import java.util.logging.*;

public class Config {
    private static final Logger LOG = Logger.getLogger("config");
    public static void main(String[] args) throws Exception {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", 1), 1000);
        } catch (ConnectException e) {
            LOG.log(Level.WARNING, "config server unreachable, falling back to cache", e);
        }
        var lines = Files.readAllLines(Path.of("config.cache"));
        System.out.println("loaded " + lines.size() + " settings from cache");
    }
}
