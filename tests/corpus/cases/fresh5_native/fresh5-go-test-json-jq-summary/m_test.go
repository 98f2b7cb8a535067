package inv

import "testing"

func TestAdd(t *testing.T) {}

func TestDiv(t *testing.T) {
	if 7/2 != 3.5 {
		t.Fatal("integer division")
	}
}
