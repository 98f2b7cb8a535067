<?php
class Order { public $items = [2, 3]; }
$o = new Order();
$o->total = array_sum($o->items);
echo "total={$o->total}\n";
