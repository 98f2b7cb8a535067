<?php
$rows = [];
for ($i = 0; ; $i++) { $rows[] = str_repeat('x', 1024) . $i; }
