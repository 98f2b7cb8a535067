#!/usr/bin/env bats

@test "greets the world by default" {
  run ./greet.sh
  [ "$status" -eq 0 ]
  [ "$output" = "Hello, world!" ]
}

@test "greets by name" {
  run ./greet.sh Ada
  [ "$output" = "Hello, Ada!" ]
}

