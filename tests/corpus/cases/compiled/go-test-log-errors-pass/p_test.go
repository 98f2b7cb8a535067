package app

import "testing"

func TestEmpty(t *testing.T) {
	_, err := Parse("")
	if err == nil {
		t.Fatal("want error")
	}
	t.Logf("got expected error: %v", err)
}
