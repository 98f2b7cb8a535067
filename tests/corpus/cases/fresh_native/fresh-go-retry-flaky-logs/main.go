package main

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"time"
)

func main() {
	url := os.Getenv("HTTP_APP") + "/flaky/fresh-go-retry/2"
	for attempt := 1; attempt <= 5; attempt++ {
		resp, err := http.Get(url)
		if err == nil && resp.StatusCode == 200 {
			body, _ := io.ReadAll(resp.Body)
			fmt.Printf("response: %s", body)
			return
		}
		if err == nil {
			err = fmt.Errorf("unexpected status %s", resp.Status)
			resp.Body.Close()
		}
		log.Printf("ERROR request failed (attempt %d): %v; retrying", attempt, err)
		time.Sleep(100 * time.Millisecond)
	}
	log.Fatal("giving up")
}
