begin
  Integer("12a")
rescue => e
  warn "import failed: #{e.message}"
  warn e.backtrace.join("\n")
end
puts "import step finished"
