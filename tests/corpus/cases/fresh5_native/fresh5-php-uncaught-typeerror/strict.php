<?php
declare(strict_types=1);
function cents(int $n): int { return $n * 100; }
echo cents("12");
