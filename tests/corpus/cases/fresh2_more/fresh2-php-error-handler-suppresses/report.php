<?php
set_error_handler(function ($no, $str, $file, $line) {
    fwrite(STDERR, "ERROR [$no] $str ($file:$line)\n");
    return true;
});
file_put_contents('/nonexistent-dir/report.csv', "id,total\n1,10\n");
echo "report saved\n";
