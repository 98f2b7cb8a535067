import java.util.logging.*;

public class Import {
    private static final Logger LOG = Logger.getLogger("import");
    public static void main(String[] args) {
        for (int i = 1; i <= 300; i++) {
            LOG.info("imported row " + i + " into table customers");
        }
        String row = "301;ACME;not-a-number";
        int credit = Integer.parseInt(row.split(";")[2]);
        System.out.println(credit);
    }
}
