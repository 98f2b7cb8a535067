import java.util.*;
public class Legacy {
    public static void main(String[] args) {
        Integer boxed = new Integer(42);
        List raw = new ArrayList();
        raw.add(boxed);
        System.out.println("legacy ok " + raw);
    }
}
