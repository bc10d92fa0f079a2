;; bot.clj - a Last Card starter bot in Clojure, with clojure.data.json.
;;
;; Run (Debian's clojure and libdata-json-clojure; C1 only and the serial GC start the JVM faster):
;;   java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC \
;;        -cp /usr/share/java/clojure.jar:/usr/share/java/data.json.jar clojure.main bot.clj
;; Check: lastcard check "java ... clojure.main bot.clj" (the command above, in quotes)
;;
;; The referee writes one JSON object per line on stdin (protocol/PROTOCOL.md). This bot answers
;;   hello -> ready,   turn -> one element of the turn's "legal" list (each is a complete answer),
;; exits on quit or at the end of input, and treats every other message as information.
(require '[clojure.data.json :as json])

;; The strategy: your code goes here. Return one element of (:legal turn). Plays come first in the
;; list, draw or pass last, so the first element plays whenever a card can be played. :hand, :top,
;; :colour, :hands and the rest are described in protocol/PROTOCOL.md, "turn".
(defn choose [turn]
  (first (:legal turn)))

(defn send! [message]
  (println (json/write-str message)) ; println flushes *out* at the end of each line
  (flush))

(loop []
  (when-let [line (read-line)] ; a line of any length; nil at the end of input
    (let [msg (json/read-str line :key-fn keyword)]
      (case (:type msg)
        "quit" nil
        (do (case (:type msg)
              "hello" (send! {:type "ready" :name "clojure-kit"})
              "turn" (send! (choose msg))
              "error" (binding [*out* *err*]
                        (println "clojure-kit: the referee reports a fault:" (:message msg)))
              nil) ; start, event, round_end, game_end: information, never answered
            (recur))))))
