package main

import "fmt"

func main() {
	fmt.Printf("%d items\n", "three")
}
