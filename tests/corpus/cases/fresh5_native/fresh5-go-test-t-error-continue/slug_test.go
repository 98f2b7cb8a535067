package inv

import "testing"

func TestSlug(t *testing.T) {
    for _, c := range []struct{ in, want string }{{"Hello World", "hello-world"}, {"  Trim me ", "trim-me"}, {"a_b", "a-b"}} {
        if got := Slug(c.in); got != c.want {
            t.Errorf("Slug(%q) = %q, want %q", c.in, got, c.want)
        }
    }
}
