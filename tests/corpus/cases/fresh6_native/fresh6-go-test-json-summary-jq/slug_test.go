package svc

import "testing"

func TestSlug(t *testing.T) {
	if Slug("A B") != "a-b" { t.Fatal("x") }
}

func TestSlugTrim(t *testing.T) {
	if got := Slug(" A "); got != "a" { t.Fatalf("Slug(' A ') = %q, want %q", got, "a") }
}
