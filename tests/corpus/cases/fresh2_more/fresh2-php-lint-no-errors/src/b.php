<?php
function b(): int { return 2; }
