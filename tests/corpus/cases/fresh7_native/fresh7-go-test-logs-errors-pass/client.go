package reconnect

import (
    "errors"
    "log"
)

type Dialer func() error

func Connect(d Dialer, attempts int) error {
    for i := 1; i <= attempts; i++ {
        err := d()
        if err == nil {
            log.Printf("INFO connected after %d attempt(s)", i)
            return nil
        }
        log.Printf("ERROR attempt %d: %v", i, err)
    }
    return errors.New("giving up")
}
