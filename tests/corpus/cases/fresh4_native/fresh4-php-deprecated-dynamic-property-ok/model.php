<?php
class User { public $name; }
$u = new User();
$u->name = 'ann';
$u->email = 'ann@example.invalid';
$parts = explode(',', 'a,b');
echo strtoupper($u->name), ' ', count($parts), PHP_EOL;
$x = utf8_encode('abc');
