package reconnect

import (
    "errors"
    "testing"
)

func TestConnectRecovers(t *testing.T) {
    n := 0
    d := func() error {
        n++
        if n < 3 {
            return errors.New("dial tcp 127.0.0.1:5432: connect: connection refused")
        }
        return nil
    }
    if err := Connect(d, 5); err != nil {
        t.Fatal(err)
    }
}

func TestConnectGivesUp(t *testing.T) {
    err := Connect(func() error { return errors.New("dial tcp: i/o timeout") }, 2)
    if err == nil {
        t.Fatal("expected an error")
    }
}
