package util

import "fmt"

func Hi() { fmt.Println("hi") }
