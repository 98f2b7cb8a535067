package app

import (
    "fmt"
    "log"
    "strconv"
)

func ParsePort(s string) (int, error) {
    n, err := strconv.Atoi(s)
    if err != nil {
        log.Printf("ERROR invalid port %q: %v", s, err)
        return 0, fmt.Errorf("invalid port %q", s)
    }
    return n, nil
}
