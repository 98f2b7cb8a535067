package main

import (
	"fmt"
	"net"
	"os"
)

func main() {
	if _, err := net.Dial("tcp", "127.0.0.1:9"); err != nil {
		fmt.Fprintln(os.Stderr, "health check failed:", err)
		os.Exit(0)
	}
}
