<?php
class Invoice { public array $lines = []; }
$i = new Invoice();
$i->currency = 'EUR';
$i->lines = [10.5, 4.5];
printf("total=%.2f %s\n", array_sum($i->lines), $i->currency);
