import java.util.*;
class W5 { List l = new ArrayList(); void f() { l.add(5); } }
