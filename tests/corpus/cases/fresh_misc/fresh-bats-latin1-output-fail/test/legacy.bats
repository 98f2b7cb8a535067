#!/usr/bin/env bats

@test "address line" {
  run ./legacy.sh
  echo "got: $output"
  [ "$output" = "Straße: Müllerweg 3" ]
}
