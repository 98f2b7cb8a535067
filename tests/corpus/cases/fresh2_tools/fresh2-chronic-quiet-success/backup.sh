#!/bin/bash
echo 'dumping database'
echo 'done'
