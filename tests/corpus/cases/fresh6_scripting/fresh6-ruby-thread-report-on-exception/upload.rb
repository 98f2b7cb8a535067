threads = %w[a.png b.png].map do |f|
  Thread.new { raise IOError, "upload of #{f} failed: bucket not found" if f == 'b.png'; puts "uploaded #{f}" }
end
sleep 0.3
puts 'all uploads queued'
