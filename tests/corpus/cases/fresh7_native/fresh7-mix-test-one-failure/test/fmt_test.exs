defmodule FmtTest do
  use ExUnit.Case
  test "whole dollars", do: assert Fmt.money(1250) == "$12.50"
  test "pads cents", do: assert Fmt.money(1205) == "$12.05"
end
