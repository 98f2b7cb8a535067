package main

import (
	"fmt"
	"log"
	"os"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	for _, f := range []string{"a.csv", "b.csv", "c.csv"} {
		wg.Add(1)
		go func(name string) {
			defer wg.Done()
			if _, err := os.ReadFile("in/" + name); err != nil {
				log.Printf("job %s failed: %v", name, err)
			}
		}(f)
	}
	wg.Wait()
	fmt.Println("all jobs dispatched")
}
