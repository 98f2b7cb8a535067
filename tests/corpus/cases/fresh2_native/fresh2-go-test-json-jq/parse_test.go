package app

import "testing"

func TestParsePort(t *testing.T) {
    if n, _ := ParsePort("08080"); n != 80 {
        t.Fatalf("got %d", n)
    }
}

func TestParsePortRejects(t *testing.T) {
    if _, err := ParsePort("80a"); err == nil {
        t.Fatal("accepted 80a")
    }
}
