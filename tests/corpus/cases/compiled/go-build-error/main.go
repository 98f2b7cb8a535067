package main

import (
	"fmt"
	"os"
)

func main() {
	x := 5
	fmt.Println("hi" + 1)
}
