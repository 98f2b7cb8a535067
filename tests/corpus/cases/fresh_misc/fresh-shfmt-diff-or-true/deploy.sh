#!/bin/bash
if [ -f x ];then
echo yes
fi
for i in 1 2;do echo $i;done
