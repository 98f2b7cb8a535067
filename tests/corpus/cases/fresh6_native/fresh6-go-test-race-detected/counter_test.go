package svc

import "testing"

func TestCount(t *testing.T) {
	if Count(50) < 1 {
		t.Fatal("no count")
	}
}
