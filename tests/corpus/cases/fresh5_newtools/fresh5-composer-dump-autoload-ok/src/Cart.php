<?php
namespace Acme;
class Cart { public function total(): int { return 42; } }
