local done = 0
for _, name in ipairs({"a.json", "b.json", "c.json"}) do
  local ok, err = pcall(function()
    local f = assert(io.open(name, "r"))
    return f:read("*a")
  end)
  if ok then done = done + 1 else io.stderr:write("error: ", tostring(err), "\n") end
end
print(("processed %d of 3 files"):format(done))
