(use-modules (ice-9 rdelim))
(catch #t
  (lambda ()
    (call-with-input-file "records.txt"
      (lambda (port) (display (read-line port)))))
  (lambda (key . args)
    (format (current-error-port) "import error: ~a ~s~%" key args)))
(display "import finished\n")
