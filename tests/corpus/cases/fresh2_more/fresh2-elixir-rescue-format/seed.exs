try do
  File.read!("priv/seeds.json") |> IO.puts()
rescue
  e -> IO.puts(:stderr, Exception.format(:error, e, __STACKTRACE__))
end
IO.puts("seeding finished")
