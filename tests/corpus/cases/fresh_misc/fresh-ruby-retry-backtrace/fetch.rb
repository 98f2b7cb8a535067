require 'net/http'
uri = URI("#{ENV['HTTP_APP']}/flaky/fresh-ruby-retry/2")
attempts = 0
begin
  attempts += 1
  res = Net::HTTP.get_response(uri)
  raise "HTTP #{res.code} #{res.message}" unless res.is_a?(Net::HTTPSuccess)
  puts "fetched: #{res.body}"
rescue => e
  warn "attempt #{attempts} failed: #{e.message}"
  warn e.backtrace.join("\n")
  retry if attempts < 5
  raise
end
