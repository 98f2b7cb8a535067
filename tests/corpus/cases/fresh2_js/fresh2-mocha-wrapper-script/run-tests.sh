#!/bin/bash
echo '== unit tests'
mocha --reporter dot test/
echo '== tests done'
rm -rf .tmp-fixtures
