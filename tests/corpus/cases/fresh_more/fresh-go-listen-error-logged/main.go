package main

import (
	"fmt"
	"log"
	"net/http"
	"os"
	"strings"
	"time"
)

func main() {
	addr := strings.TrimPrefix(os.Getenv("HTTP_APP"), "http://")
	go func() {
		if err := http.ListenAndServe(addr, nil); err != nil {
			log.Printf("http server error: %v", err)
		}
	}()
	time.Sleep(500 * time.Millisecond)
	fmt.Println("service started, health checks scheduled")
}
