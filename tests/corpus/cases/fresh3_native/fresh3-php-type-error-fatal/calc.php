<?php
declare(strict_types=1);
function cents(int $amount): int { return $amount * 100; }
echo cents('12'), "\n";
