package main

import ("errors"; "fmt"; "log"; "sync")

func syncShard(n int) error { return errors.New(fmt.Sprintf("shard %d: dial tcp 127.0.0.1:9042: connect: connection refused", n)) }

func main() {
    var wg sync.WaitGroup
    for i := 0; i < 3; i++ {
        wg.Add(1)
        go func(n int) {
            defer wg.Done()
            if err := syncShard(n); err != nil { log.Printf("worker %d: %v", n, err) }
        }(i)
    }
    wg.Wait()
    fmt.Println("sync complete")
}
