;;;; bot.lisp - a Last Card starter bot in Common Lisp (SBCL), no libraries.
;;;;
;;;; Run: sbcl --script bot.lisp      Check: lastcard check "sbcl --script bot.lisp"
;;;;
;;;; The referee writes one JSON object per line on stdin (protocol/PROTOCOL.md). This bot answers
;;;;   hello -> ready,   turn -> one element of the turn's "legal" list (each is a complete answer),
;;;; exits on quit or at the end of input, and treats every other message as information.
;;;; The usual JSON libraries come through Quicklisp (a network), so a short reader is below:
;;;; an object is a hash table (string keys), an array a vector, true/false/null are :true/:false/:null.

;;; The reader keeps its place in I, which each step moves past what it read.
(defun read-json (s)
  "The JSON value at the start of string S."
  (let ((i 0))
    (labels ((ws () (setf i (or (position-if-not (lambda (c) (find c '(#\Space #\Tab #\Return #\Newline)))
                                                  s :start i)
                                (length s))))
             (peek () (ws) (char s i))
             (str ()                     ; at the opening quote
               (incf i)
               (with-output-to-string (out)
                 (loop (let ((c (char s i)))
                         (incf i)
                         (cond ((char= c #\") (return))
                               ((char= c #\\)
                                (let ((e (char s i)))
                                  (incf i)
                                  (case e
                                    (#\n (write-char #\Newline out))
                                    (#\t (write-char #\Tab out))
                                    (#\u (write-char #\? out) (incf i 4)) ; non-ASCII escapes only occur in names
                                    (t (write-char e out)))))
                               (t (write-char c out)))))))
             (items (close item)         ; the items up to CLOSE, each read by ITEM
               (incf i)
               (if (char= (peek) close)
                   (progn (incf i) '())
                   (loop collect (funcall item)
                         until (char= (peek) close)
                         do (incf i)     ; the comma
                         finally (incf i))))
             (value ()
               (case (peek)
                 (#\{ (let ((table (make-hash-table :test 'equal)))
                        (items #\} (lambda () (let ((key (progn (ws) (str))))
                                                (ws) (incf i) ; the colon
                                                (setf (gethash key table) (value)))))
                        table))
                 (#\[ (coerce (items #\] #'value) 'vector))
                 (#\" (str))
                 (t (let* ((end (or (position-if (lambda (c) (find c ",}] ")) s :start i) (length s)))
                           (word (subseq s i end)))
                      (setf i end)
                      (cond ((string= word "true") :true)
                            ((string= word "false") :false)
                            ((string= word "null") :null)
                            (t (parse-integer word))))))))
      (value))))

(defun write-json (v)
  "V as one line of JSON."
  (typecase v
    (hash-table (format nil "{~{~a~^,~}}"
                        (loop for k being the hash-keys of v using (hash-value x)
                              collect (format nil "~a:~a" (write-json k) (write-json x)))))
    (string (format nil "\"~a\"" v))   ; card codes and colours need no escapes
    (vector (format nil "[~{~a~^,~}]" (map 'list #'write-json v)))
    (t (string-downcase (princ-to-string v)))))  ; integers, :true, :false, :null

(defun member-of (object key) (gethash key object))

;;; The strategy: your code goes here. Return one element of (member-of turn "legal"). Plays come
;;; first in the list, draw or pass last, so the first element plays whenever a card can be played.
;;; "hand", "top", "colour", "hands" and the rest are described in protocol/PROTOCOL.md, "turn".
(defun choose (turn)
  (aref (member-of turn "legal") 0))

(defun send (line)
  (write-line line)
  (finish-output))                     ; flush: the referee is waiting for this line

(loop for line = (read-line *standard-input* nil) ; a line of any length; nil at the end of input
      while line
      do (let* ((msg (read-json line))
                (type (member-of msg "type")))
           (cond ((equal type "quit") (return))
                 ((equal type "hello") (send "{\"type\":\"ready\",\"name\":\"commonlisp-kit\"}"))
                 ((equal type "turn") (send (write-json (choose msg))))
                 ((equal type "error")
                  (format *error-output* "commonlisp-kit: the referee reports a fault: ~a~%"
                          (member-of msg "message"))))))
        ;; start, event, round_end, game_end: information, never answered
