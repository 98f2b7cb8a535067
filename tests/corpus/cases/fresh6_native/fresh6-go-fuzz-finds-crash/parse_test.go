package svc

import "testing"

func FuzzParse(f *testing.F) {
	f.Add([]byte("x"))
	f.Fuzz(func(t *testing.T, b []byte) { Parse(b) })
}
