import java.util.*;
class W1 { List l = new ArrayList(); void f() { l.add(1); } }
