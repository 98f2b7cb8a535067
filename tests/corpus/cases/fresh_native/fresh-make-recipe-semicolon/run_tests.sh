#!/bin/bash
echo 'test_login ... ok'
echo 'test_logout ... FAIL: session cookie still set'
exit 1
