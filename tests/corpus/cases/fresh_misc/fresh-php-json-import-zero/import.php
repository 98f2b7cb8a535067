<?php
$data = json_decode(file_get_contents('export.json'), true);
if ($data === null) {
    error_log('import: cannot decode export.json: ' . json_last_error_msg());
    $data = [];
}
echo 'imported ' . count($data) . " records\n";
