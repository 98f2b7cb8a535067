import java.util.*;
class W3 { List l = new ArrayList(); void f() { l.add(3); } }
