package inv

import ("sync"; "testing")

func TestCounter(t *testing.T) {
    n := 0
    var wg sync.WaitGroup
    for i := 0; i < 4; i++ {
        wg.Add(1)
        go func() { defer wg.Done(); n++ }()
    }
    wg.Wait()
}
