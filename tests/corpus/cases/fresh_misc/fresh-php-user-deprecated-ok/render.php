<?php
$cfg = ['tpl_dir' => 'views', 'cache' => true];
if (isset($cfg['cache'])) trigger_error('config key "cache" is deprecated, use "cache_ttl"', E_USER_DEPRECATED);
file_put_contents('out.html', "<h1>ok</h1>\n");
echo "rendered out.html\n";
