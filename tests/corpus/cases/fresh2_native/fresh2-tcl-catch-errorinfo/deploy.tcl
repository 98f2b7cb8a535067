if {[catch {file copy -force build/app.tar /srv/releases/} err]} {
    puts stderr "deploy error: $::errorInfo"
}
puts "deploy done"
