#!/bin/sh
. ./semver.sh
test_bump_patch() { assertEquals "1.2.4" "$(bump patch 1.2.3)"; }
test_bump_minor() { assertEquals "1.3.0" "$(bump minor 1.2.3)"; }
test_bump_major() { assertEquals "2.0.0" "$(bump major 1.9.9)"; }
. shunit2
