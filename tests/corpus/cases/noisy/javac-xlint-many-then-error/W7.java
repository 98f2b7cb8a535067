import java.util.*;
class W7 { List l = new ArrayList(); void f() { l.add(7); } }
