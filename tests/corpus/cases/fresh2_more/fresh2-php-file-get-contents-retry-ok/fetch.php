<?php
$url = getenv('HTTP_APP') . '/flaky/f2-php/2';
for ($i = 1; $i <= 5; $i++) {
    $body = file_get_contents($url);
    if ($body !== false) { echo "fetched: $body"; exit(0); }
    usleep(100000);
}
exit(1);
