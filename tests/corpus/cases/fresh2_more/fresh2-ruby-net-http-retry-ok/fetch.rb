require "net/http"
require "logger"
log = Logger.new($stderr)
uri = URI("#{ENV.fetch('HTTP_APP')}/flaky/f2-ruby/2")
5.times do |i|
  res = Net::HTTP.get_response(uri)
  if res.is_a?(Net::HTTPSuccess)
    puts "fetched: #{res.body}"
    exit 0
  end
  log.error("attempt #{i + 1}: #{res.code} #{res.message}, retrying")
  sleep 0.1
end
abort "giving up"
