import java.util.*;
public class Legacy { public static List make() { List l = new ArrayList(); l.add(new Integer(5)); return l; } }
