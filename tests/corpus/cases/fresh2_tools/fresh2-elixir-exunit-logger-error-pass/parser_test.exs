ExUnit.start(capture_log: false)
require Logger

defmodule Parser do
  def parse(s) do
    case Integer.parse(s) do
      {n, ""} -> {:ok, n}
      _ ->
        Logger.error("could not parse #{inspect(s)}: invalid integer")
        {:error, :invalid}
    end
  end
end

defmodule ParserTest do
  use ExUnit.Case
  test "valid", do: assert(Parser.parse("42") == {:ok, 42})
  test "invalid", do: assert(Parser.parse("4x2") == {:error, :invalid})
end
