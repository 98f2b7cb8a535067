defmodule Sum do
  def run(xs) do
    tmp = 1
    Enum.sum(xs)
  end
end
IO.puts("total=#{Sum.run([1, 2, 3])}")
