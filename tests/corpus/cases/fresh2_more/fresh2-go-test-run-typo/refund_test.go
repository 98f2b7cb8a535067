package app

import "testing"

func TestRefundPartial(t *testing.T) {
	if 10-4 != 7 {
		t.Fatal("partial refund wrong")
	}
}
