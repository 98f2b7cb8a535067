package main

import (
	"context"
	"log"
	"time"
)

func fetch(ctx context.Context) error {
	select {
	case <-time.After(2 * time.Second):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := fetch(ctx); err != nil {
		log.Printf("sync: fetch inventory: %v", err)
		return
	}
	log.Print("sync: done")
}
