package main

import "github.com/corpus/missing/pkg"

func main() { pkg.Run() }
