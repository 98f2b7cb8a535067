package svc

import "sync"

func Count(n int) int {
	c := 0
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); c++ }()
	}
	wg.Wait()
	return c
}
