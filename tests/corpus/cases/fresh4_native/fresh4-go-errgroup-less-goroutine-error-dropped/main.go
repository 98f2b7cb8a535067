package main

import (
	"fmt"
	"log"
	"sync"
)

func upload(n int) error {
	if n%2 == 1 {
		return fmt.Errorf("upload part %d: 403 Forbidden: signature mismatch", n)
	}
	return nil
}

func main() {
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func(n int) {
			defer wg.Done()
			if err := upload(n); err != nil {
				log.Printf("error: %v", err)
				errs <- err
			}
		}(i)
	}
	wg.Wait()
	fmt.Println("upload complete")
}
