import java.util.logging.Level;
import java.util.logging.Logger;

public class Client {
    static final Logger LOG = Logger.getLogger("client");
    static int calls = 0;
    static String fetch() throws java.io.IOException {
        if (++calls < 3) throw new java.net.ConnectException("Connection refused");
        return "{\"balance\": 42}";
    }
    public static void main(String[] args) throws Exception {
        for (int i = 1; i <= 5; i++) {
            try { System.out.println("got " + fetch()); return; }
            catch (java.io.IOException e) { LOG.log(Level.SEVERE, "attempt " + i + " failed, retrying", e); }
        }
        System.exit(1);
    }
}
