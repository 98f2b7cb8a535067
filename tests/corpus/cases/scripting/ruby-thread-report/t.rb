t = Thread.new { raise IOError, 'sync to bucket failed' }
sleep 0.2
puts 'main done'
