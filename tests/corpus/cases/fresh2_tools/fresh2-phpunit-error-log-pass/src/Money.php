<?php
final class Money {
    public static function cents(string $amount): int {
        if (!is_numeric($amount)) {
            error_log("ERROR Money::cents: invalid amount '$amount'");
            return 0;
        }
        return (int) round(((float) $amount) * 100);
    }
}
