<?php
class Customer { public string $name; }
$rows = [['acme', 'de'], ['globex', 'us']];
$out = [];
foreach ($rows as [$name, $country]) {
    $c = new Customer();
    $c->name = $name;
    $c->country = $country;
    $out[] = $c;
}
printf("imported %d customers\n", count($out));
