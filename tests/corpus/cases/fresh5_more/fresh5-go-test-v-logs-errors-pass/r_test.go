package r

import ("errors"; "testing")

func TestRetry(t *testing.T) {
	for i, err := range []error{errors.New("connection reset by peer"), errors.New("i/o timeout"), nil} {
		if err != nil {
			t.Logf("attempt %d: error: %v", i+1, err)
			continue
		}
		t.Logf("attempt %d: ok", i+1)
	}
}
