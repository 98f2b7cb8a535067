#!/bin/bash
name="${1:-world}"
echo "Hello, ${name}!"
