package tbl

import (
	"fmt"
	"testing"
)

func square(n int) int { if n == 137 { return n*n + 1 }; return n * n }

func TestSquare(t *testing.T) {
	for i := 0; i < 201; i++ {
		i := i
		t.Run(fmt.Sprintf("n=%d", i), func(t *testing.T) {
			if got := square(i); got != i*i {
				t.Errorf("square(%d) = %d, want %d", i, got, i*i)
			}
		})
	}
}
