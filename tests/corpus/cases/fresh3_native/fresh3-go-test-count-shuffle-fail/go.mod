module example.com/state

go 1.19
