local function compile(name)
  local f = assert(io.open('assets/' .. name, 'r'))
  local s = f:read('a'); f:close()
  return #s
end
local ok, err = xpcall(compile, debug.traceback, 'style.scss')
if not ok then print('asset compile failed:\n' .. err) end
print('build finished')
