package main

import (
	"log"
	"sync"
)

func main() {
	for i := 0; i < 300; i++ {
		log.Printf("processed batch %d ok", i)
	}
	var wg sync.WaitGroup
	var m map[string]int
	wg.Add(1)
	go func() { defer wg.Done(); m["x"] = 1 }()
	wg.Wait()
}
