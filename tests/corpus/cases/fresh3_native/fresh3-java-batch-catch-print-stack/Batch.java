import java.util.List;
public class Batch {
    public static void main(String[] args) {
        int ok = 0;
        for (String rec : List.of("12.5", "n/a", "")) {
            try {
                if (Integer.parseInt(rec) >= 0) ok++;
            } catch (NumberFormatException e) {
                e.printStackTrace();
            }
        }
        System.out.println("processed " + ok + " of 3");
    }
}
