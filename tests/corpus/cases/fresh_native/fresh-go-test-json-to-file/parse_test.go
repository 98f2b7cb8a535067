package app

import "testing"

func TestFields(t *testing.T) {
	if got := len(Fields("a,b,c")); got != 3 {
		t.Fatalf("got %d", got)
	}
}

func TestFieldsTrimsSpaces(t *testing.T) {
	if got := Fields("a, b"); got[1] != "b" {
		t.Fatalf("field 1 = %q, want %q", got[1], "b")
	}
}
