#!/bin/bash
if [ -n "$1" ]; then
  echo arg
