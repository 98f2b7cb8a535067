package main

import (
	"fmt"
	"time"
)

func main() {
	for {
		fmt.Println("waiting for job queue...")
		time.Sleep(500 * time.Millisecond)
	}
}
