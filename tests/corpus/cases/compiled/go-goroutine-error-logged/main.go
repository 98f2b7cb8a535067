package main

import (
	"log"
	"os"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := os.WriteFile("/nonexistent/out.csv", []byte("a,b\n"), 0o644); err != nil {
			log.Printf("worker: write results: %v", err)
		}
	}()
	wg.Wait()
}
