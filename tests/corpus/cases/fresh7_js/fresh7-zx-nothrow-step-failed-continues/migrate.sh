#!/bin/sh
echo 'applying 0003_add_index.sql' >&2
echo 'ERROR: relation "orders" does not exist' >&2
exit 3
