local M = {}
function M.add(a, b)
  return a + b
end
return M
