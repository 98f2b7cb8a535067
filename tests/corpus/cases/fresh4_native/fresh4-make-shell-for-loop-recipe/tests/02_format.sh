#!/bin/sh
echo 'ok: format'
