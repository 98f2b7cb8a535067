#!/bin/bash
printf 'Stra\xdfe: M\xfcllerweg 3\n'
