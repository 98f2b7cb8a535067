package app

import ("fmt"; "testing")

func sq(x int) int { if x == 42 { return 0 }; return x * x }

func TestSquares(t *testing.T) {
    for i := 0; i < 61; i++ {
        i := i
        t.Run(fmt.Sprintf("n=%d", i), func(t *testing.T) {
            t.Logf("checking %d", i)
            if sq(i) != i*i { t.Errorf("sq(%d) = %d, want %d", i, sq(i), i*i) }
        })
    }
}
