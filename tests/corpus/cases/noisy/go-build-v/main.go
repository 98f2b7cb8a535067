package main

import "example.com/app/util"

func main() { util.Hi() }
