import java.util.*;
public class Load { public static void main(String[] a) { List<byte[]> l = new ArrayList<>(); while (true) l.add(new byte[1 << 20]); } }
