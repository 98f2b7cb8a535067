package svc

func Parse(b []byte) int {
	if len(b) > 0 && b[0] == '{' {
		return int(b[1])
	}
	return 0
}
