local json = require('json')
function handler(req)
  local unused = 1
  return respnse
end
