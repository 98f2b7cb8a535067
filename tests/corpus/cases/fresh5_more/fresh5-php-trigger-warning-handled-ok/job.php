<?php
$rows = ["a@x.io", "nope", "c@x.io"];
$ok = 0;
foreach ($rows as $i => $r) {
  if (!filter_var($r, FILTER_VALIDATE_EMAIL)) { trigger_error("row " . ($i + 1) . ": invalid email '$r'", E_USER_WARNING); continue; }
  $ok++;
}
echo "imported $ok of " . count($rows) . " rows (1 skipped by design)\n";
