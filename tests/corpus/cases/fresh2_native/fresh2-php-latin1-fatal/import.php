<?php
$name = "Müller";
throw new RuntimeException("Kunde $name nicht gefunden");
