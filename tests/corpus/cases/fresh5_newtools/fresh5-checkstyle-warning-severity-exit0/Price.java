import java.util.List;
public class Price {
  int tax(int n) {
    if (n > 0) return n * 21 / 100;
    return 0;
  }
}
