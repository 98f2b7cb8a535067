package main

import (
	"fmt"
	"os"
	"runtime/debug"
)

var tries = map[int]int{}

func process(item int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "panic: %v\n%s", r, debug.Stack())
			err = fmt.Errorf("item %d: %v", item, r)
		}
	}()
	tries[item]++
	if item == 2 && tries[item] == 1 {
		var m map[string]int
		m["x"] = 1
	}
	return nil
}

func main() {
	done := 0
	for item := 1; item <= 3; item++ {
		if err := process(item); err != nil {
			fmt.Fprintf(os.Stderr, "retrying after error: %v\n", err)
			if err := process(item); err != nil {
				os.Exit(1)
			}
		}
		done++
	}
	fmt.Printf("processed %d/3 items\n", done)
}
