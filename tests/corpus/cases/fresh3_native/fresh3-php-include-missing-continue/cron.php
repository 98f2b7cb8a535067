<?php
@include_once 'vendor/autoload.php';
include 'lib/mailer.php';
$sent = function_exists('send_digest') ? send_digest() : 0;
echo "digest run complete: $sent emails sent\n";
