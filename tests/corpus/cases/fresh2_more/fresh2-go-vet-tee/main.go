package main

import "fmt"

func main() {
	n := 3
	fmt.Printf("%s items\n", n)
}
