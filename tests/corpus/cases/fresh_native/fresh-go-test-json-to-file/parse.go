package app

import "strings"

func Fields(s string) []string { return strings.Split(s, ",") }
