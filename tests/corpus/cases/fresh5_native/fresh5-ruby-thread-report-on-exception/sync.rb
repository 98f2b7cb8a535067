t = Thread.new { sleep 0.05; raise Errno::ECONNREFUSED, "connect(2) for 127.0.0.1:5432" }
sleep 0.2
puts "sync finished"
