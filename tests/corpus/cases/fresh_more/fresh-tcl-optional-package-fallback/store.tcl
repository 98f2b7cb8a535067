if {[catch {package require corpus_sqlite_missing} err]} {
    puts stderr "warning: $err; falling back to flat-file storage"
    set f [open store.txt w]
    puts $f "user=ada score=42"
    close $f
    puts "stored 1 record (flat file)"
}
