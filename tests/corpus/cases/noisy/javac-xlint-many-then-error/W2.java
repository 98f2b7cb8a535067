import java.util.*;
class W2 { List l = new ArrayList(); void f() { l.add(2); } }
