local ok, cjson = pcall(require, 'cjson')
local encode
if ok then
  encode = cjson.encode
else
  io.stderr:write('warning: lua-cjson not available, using pure-Lua encoder:\n' .. cjson .. '\n')
  encode = function(t)
    local parts = {}
    for k, v in pairs(t) do parts[#parts + 1] = string.format('"%s":%d', k, v) end
    table.sort(parts)
    return '{' .. table.concat(parts, ',') .. '}'
  end
end
print(encode({ a = 1, b = 2 }))
