package corpus;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;
public class CalcTest {
  @Test void adds() { assertEquals(4, Calc.add(2, 2)); }
  @Test void addsNeg() { assertEquals(-2, Calc.add(-1, 2)); }
}
