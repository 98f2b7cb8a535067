import java.util.*;
class W6 { List l = new ArrayList(); void f() { l.add(6); } }
