local P = {}
function P.int(s)
  local n = tonumber(s)
  if not n then io.stderr:write('ERROR parse: not a number: ' .. tostring(s) .. '\n') end
  return n
end
return P
