<?php
echo 'ok';
