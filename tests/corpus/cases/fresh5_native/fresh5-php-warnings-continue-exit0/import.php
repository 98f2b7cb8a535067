<?php
$fh = fopen("users.csv", "r");
$n = 0;
while ($fh && ($row = fgetcsv($fh)) !== false) { $n++; }
echo "imported $n rows\n";
