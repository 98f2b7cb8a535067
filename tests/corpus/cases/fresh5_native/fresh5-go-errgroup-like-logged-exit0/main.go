package main

import ("log"; "net"; "sync"; "time")

func main() {
    var wg sync.WaitGroup
    for _, port := range []string{"1", "2", "3"} {
        wg.Add(1)
        go func(p string) {
            defer wg.Done()
            if _, err := net.DialTimeout("tcp", "127.0.0.1:"+p, time.Second); err != nil {
                log.Printf("replica %s: %v", p, err)
            }
        }(port)
    }
    wg.Wait()
    log.Println("sync finished")
}
