if {[catch {open /nonexistent/data.txt r} err]} { puts stderr "error: $err" }
puts done
