package main

import ("fmt"; "io"; "log"; "net/http"; "os"; "time")

func main() {
    url := os.Getenv("HTTP_APP") + "/flaky/f2-go/2"
    for i := 1; i <= 5; i++ {
        res, err := http.Get(url)
        if err == nil && res.StatusCode == 200 {
            b, _ := io.ReadAll(res.Body)
            fmt.Printf("fetched: %s", b)
            return
        }
        if err == nil { log.Printf("error: unexpected status %d (attempt %d), retrying", res.StatusCode, i); res.Body.Close() }
        time.Sleep(100 * time.Millisecond)
    }
    os.Exit(1)
}
