module example.com/reconnect

go 1.19
