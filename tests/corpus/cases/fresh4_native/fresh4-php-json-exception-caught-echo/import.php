<?php
$raw = '[{"name": "acme"}, {"name": ';
$n = 0;
try {
  $rows = json_decode($raw, true, 512, JSON_THROW_ON_ERROR);
  $n = count($rows);
} catch (JsonException $e) {
  echo 'Import error: ', $e->getMessage(), PHP_EOL;
}
echo "import finished ($n customers)\n";
