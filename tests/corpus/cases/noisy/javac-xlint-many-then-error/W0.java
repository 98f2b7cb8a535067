import java.util.*;
class W0 { List l = new ArrayList(); void f() { l.add(0); } }
