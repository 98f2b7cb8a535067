import java.util.*;
public class W { public static void main(String[] a) { List l = new ArrayList(); l.add(new Integer(5)); System.out.println("size=" + l.size()); } }
