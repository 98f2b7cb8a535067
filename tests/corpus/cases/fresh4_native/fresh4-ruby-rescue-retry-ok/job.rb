attempts = 0
begin
  attempts += 1
  raise IOError, 'Errno::ECONNRESET: Connection reset by peer' if attempts < 3
  puts "synced after #{attempts} attempts"
rescue IOError => e
  warn "#{e.class}: #{e.message} (attempt #{attempts}), retrying"
  retry
end
