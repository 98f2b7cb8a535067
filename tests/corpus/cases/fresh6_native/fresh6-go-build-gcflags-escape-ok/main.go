package main

import "fmt"

type buf struct{ b [64]byte }

func newBuf() *buf { return &buf{} }

func main() { fmt.Println(len(newBuf().b)) }
