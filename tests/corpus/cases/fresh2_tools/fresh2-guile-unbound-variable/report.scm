(define (total xs) (apply + xs))
(display (total (list 1 2 3)))
(newline)
(display (average (list 1 2 3)))
