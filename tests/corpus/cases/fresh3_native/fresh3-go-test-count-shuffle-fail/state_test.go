package state

import "testing"

var cache = map[string]int{}

func TestA_Fill(t *testing.T) { cache["k"] = 1 }

func TestB_Read(t *testing.T) {
	if cache["k"] != 1 {
		t.Fatalf("cache not warmed: got %d", cache["k"])
	}
}

func TestC_Clear(t *testing.T) { delete(cache, "k") }
