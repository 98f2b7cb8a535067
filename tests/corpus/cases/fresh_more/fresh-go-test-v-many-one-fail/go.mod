module example.com/tbl

go 1.19
