#lang racket/base
;; bot.rkt - a Last Card starter bot in Racket, with its json library.
;;
;; Build (optional, for a faster start): raco make bot.rkt      Run: racket bot.rkt
;; Check: lastcard check "racket bot.rkt"
;;
;; The referee writes one JSON object per line on stdin (protocol/PROTOCOL.md). This bot answers
;;   hello -> ready,   turn -> one element of the turn's "legal" list (each is a complete answer),
;; exits on quit or at the end of input, and treats every other message as information.
;; read-json gives a hash with symbol keys for an object and a list for an array.
(require json)

;; The strategy: your code goes here. Return one element of (hash-ref turn 'legal). Plays come
;; first in the list, draw or pass last, so the first element plays whenever a card can be played.
;; 'hand, 'top, 'colour, 'hands and the rest are described in protocol/PROTOCOL.md, "turn".
(define (choose turn)
  (car (hash-ref turn 'legal)))

(define (send message)
  (write-json message)
  (newline)
  (flush-output)) ; the referee is waiting for this line

(let loop ()
  (define line (read-line (current-input-port) 'linefeed)) ; a line of any length
  (unless (eof-object? line)
    (define msg (string->jsexpr line))
    (define type (hash-ref msg 'type #f))
    (cond
      [(equal? type "quit") (void)]
      [else
       (cond
         [(equal? type "hello") (send (hasheq 'type "ready" 'name "racket-kit"))]
         [(equal? type "turn") (send (choose msg))]
         [(equal? type "error")
          (eprintf "racket-kit: the referee reports a fault: ~a\n" (hash-ref msg 'message ""))])
       ;; start, event, round_end, game_end: information, never answered
       (loop)])))
