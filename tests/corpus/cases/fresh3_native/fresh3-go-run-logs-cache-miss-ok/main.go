package main

import (
	"fmt"
	"log"
)

func main() {
	log.Printf("level=ERROR msg=\"cache miss, loading from database\" key=user:42")
	fmt.Println("user:42 = alice")
}
