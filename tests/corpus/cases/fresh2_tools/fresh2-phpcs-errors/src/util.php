<?php
function do_thing($a,$b){
if($a){return $b;}
}
