require 'net/http'
uri = URI("#{ENV['HTTP_APP']}/slow/3")
begin
  body = Net::HTTP.start(uri.host, uri.port, read_timeout: 1) { |h| h.get(uri.path).body }
  puts "synced #{body.bytesize} bytes"
rescue Net::ReadTimeout => e
  warn "sync failed: #{e.class}: #{e.message}"
end
puts 'sync job complete'
