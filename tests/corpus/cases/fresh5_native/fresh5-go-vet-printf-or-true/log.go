package inv

import "fmt"

func Report(n int, name string) { fmt.Printf("%d items for %d\n", n, name) }
