package main

type cfg struct{ port int }

func load() *cfg { return nil }

func main() {
	println(load().port)
}
