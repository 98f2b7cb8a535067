<?php
use PHPUnit\Framework\TestCase;
require_once __DIR__ . '/../src/Money.php';

final class MoneyTest extends TestCase {
    public function testCents(): void { $this->assertSame(2000, Money::cents('19.994')); }
    public function testInvalid(): void { $this->assertSame(0, Money::cents('abc')); }
}
