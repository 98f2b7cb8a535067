local S = {}
function S.new() return {n = 0, items = {}} end
function S.push(s, v) s.n = s.n + 1; s.items[s.n] = v end
function S.pop(s) local v = s.items[s.n]; s.items[s.n] = nil; s.n = s.n - 1; return v end
return S
