totals = { 'eu' => 120, 'us' => 80 }
ok = (1 =~ /x/).nil?
puts totals.map { |k, v| "#{k}=#{v}" }.join(' ') + " check=#{ok}"
