local job = coroutine.create(function()
  local cfg = nil
  print("job: starting")
  return cfg.interval * 2
end)
local ok, err = coroutine.resume(job)
if not ok then io.stderr:write("scheduler: job failed: ", err, "\n") end
print("scheduler: all jobs dispatched")
