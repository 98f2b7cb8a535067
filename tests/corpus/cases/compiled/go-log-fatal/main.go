package main

import (
	"log"
	"os"
)

func main() {
	if _, err := os.ReadFile("in.json"); err != nil {
		log.Fatalf("read input: %v", err)
	}
}
