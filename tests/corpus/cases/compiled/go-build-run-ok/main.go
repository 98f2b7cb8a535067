package main

import "fmt"

func main() {
	fmt.Println("sum =", 1+2+3)
}
