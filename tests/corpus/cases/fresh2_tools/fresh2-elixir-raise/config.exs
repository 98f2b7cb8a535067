%{port: port} = %{host: "localhost"}
IO.puts("listening on #{port}")
