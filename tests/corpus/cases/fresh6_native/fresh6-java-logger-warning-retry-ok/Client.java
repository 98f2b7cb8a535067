import java.util.logging.*;
public class Client {
    static int tries = 0;
    static String connect() throws java.io.IOException {
        if (++tries < 2) throw new java.net.ConnectException("Connection refused");
        return "connected";
    }
    public static void main(String[] a) throws Exception {
        Logger log = Logger.getLogger("client");
        for (int i = 0; i < 3; i++) {
            try { System.out.println(connect() + " after " + tries + " tries"); return; }
            catch (java.io.IOException e) { log.log(Level.SEVERE, "connect failed, retrying", e); }
        }
        System.exit(1);
    }
}
