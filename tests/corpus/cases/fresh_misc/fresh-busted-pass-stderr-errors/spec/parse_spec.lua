package.path = './?.lua;' .. package.path
local P = require('parse')
describe('int', function()
  it('parses digits', function() assert.are.equal(12, P.int('12')) end)
  it('rejects words', function() assert.is_nil(P.int('twelve')) end)
end)
