package app

import (
	"errors"
	"testing"
)

func TestRetry(t *testing.T) {
	attempts := 0
	call := func() error {
		attempts++
		if attempts < 3 {
			return errors.New("dial tcp 127.0.0.1:5432: connect: connection refused")
		}
		return nil
	}
	var err error
	for i := 0; i < 5; i++ {
		if err = call(); err == nil {
			break
		}
		t.Logf("attempt %d failed: %v", i+1, err)
	}
	if err != nil {
		t.Fatal(err)
	}
}
