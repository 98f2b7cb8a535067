require "net/http"
tries = 0
begin
  tries += 1
  res = Net::HTTP.get_response(URI(ENV["HTTP_APP"] + "/flaky/fresh5-rb/2"))
  raise "HTTP #{res.code} #{res.class}" unless res.is_a?(Net::HTTPSuccess)
  puts "deployed: #{res.body}"
rescue => e
  warn "attempt #{tries} failed: #{e.message}"
  retry if tries < 4
  raise
end
