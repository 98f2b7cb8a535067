import java.util.*;
class W4 { List l = new ArrayList(); void f() { l.add(4); } }
