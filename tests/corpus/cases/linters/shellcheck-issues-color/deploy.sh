#!/bin/bash
for f in $(ls *.txt); do
  cp $f /backup/
done
cd $DIR
