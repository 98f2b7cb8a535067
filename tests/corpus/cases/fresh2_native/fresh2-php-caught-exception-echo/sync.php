<?php
try {
    $db = new PDO('mysql:host=127.0.0.1;dbname=shop', 'app', 'secret');
    echo "synced\n";
} catch (Throwable $e) {
    echo "sync error: " . $e . "\n";
}
echo "cron done\n";
