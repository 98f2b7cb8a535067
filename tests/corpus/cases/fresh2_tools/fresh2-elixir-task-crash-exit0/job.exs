{:ok, _pid} = Task.start(fn ->
  rows = [10, 20, 0]
  Enum.each(rows, fn r -> IO.puts("ratio #{div(100, r)}") end)
end)
Process.sleep(500)
IO.puts("import job submitted")
