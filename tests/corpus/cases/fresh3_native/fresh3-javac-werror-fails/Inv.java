import java.util.*;
public class Inv { public static void main(String[] a) { List items = new ArrayList(); items.add("x"); System.out.println(items); } }
