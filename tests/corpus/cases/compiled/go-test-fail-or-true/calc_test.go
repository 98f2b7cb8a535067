package app

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 6 {
		t.Errorf("Add(2, 3) = %d, want 6", got)
	}
}
