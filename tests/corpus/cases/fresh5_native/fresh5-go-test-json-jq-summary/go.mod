module example.com/inv

go 1.19
