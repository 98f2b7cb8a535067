(defun total (xs) (reduce #'+ xs))
(format t "total ~a~%" (total '(1 2 3)))
(format t "avg ~a~%" (average '(1 2 3)))
