<?php
function row($r) { if (!is_numeric($r[1])) throw new InvalidArgumentException("bad price '{$r[1]}' for {$r[0]}"); return $r; }
foreach ([['a', '1'], ['b', 'x']] as $r) { row($r); echo "imported {$r[0]}\n"; }
