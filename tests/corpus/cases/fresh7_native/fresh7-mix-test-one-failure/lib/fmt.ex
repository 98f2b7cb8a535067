defmodule Fmt do
  def money(cents), do: "$" <> Integer.to_string(div(cents, 100)) <> "." <> Integer.to_string(rem(cents, 100))
end
