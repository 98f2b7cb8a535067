package main

import (
	"encoding/json"
	"fmt"
)

func main() {
	b, _ := json.Marshal(map[string]int{"ok": 1})
	fmt.Println(string(b))
}
