import java.time.*;
var d = LocalDate.parse("2024-02-30");
System.out.println("parsed " + d);
int total = List.of(1, 2, 3).stream().mapToInt(i -> i).summ();
System.out.println("total " + total);
/exit
