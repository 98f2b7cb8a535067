queue = ["a@example.invalid", "b@example.invalid"]
t = Thread.new do
  queue.each { |to| raise Errno::ECONNREFUSED, "smtp 127.0.0.1:25 (#{to})" }
end
sleep 0.2
puts "mailer: queued #{queue.size} messages"
