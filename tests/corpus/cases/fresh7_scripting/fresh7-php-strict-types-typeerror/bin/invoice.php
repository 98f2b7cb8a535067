<?php
declare(strict_types=1);
function format_cents(int $cents): string {
    return sprintf('$%d.%02d', intdiv($cents, 100), $cents % 100);
}
echo format_cents($argv[1]), PHP_EOL;
