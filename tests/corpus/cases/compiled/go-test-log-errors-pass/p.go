package app

import "errors"

func Parse(s string) (int, error) {
	if s == "" {
		return 0, errors.New("error: empty input")
	}
	return len(s), nil
}
