# bot.R - a Last Card starter bot in R, with jsonlite (the usual JSON reader of R).
#
# Run: Rscript bot.R      Check: lastcard check "Rscript bot.R"
#
# The referee writes one JSON object per line on stdin (protocol/PROTOCOL.md). This bot answers
#   hello -> ready,   turn -> one element of the turn's "legal" list (each is a complete answer),
# exits on quit or at the end of input, and treats every other message as information.
library(jsonlite)

# simplifyVector = FALSE keeps JSON's shapes: an object is a named list, an array a list.
read_message <- function(line) fromJSON(line, simplifyVector = FALSE)

# auto_unbox writes a one-element vector as a value, not an array; null = "null" keeps nulls.
write_message <- function(message) toJSON(message, auto_unbox = TRUE, null = "null")

# The strategy: your code goes here. Return one element of turn$legal. Plays come first in the
# list, draw or pass last, so the first element plays whenever a card can be played. turn$hand,
# turn$top, turn$colour, turn$hands and the rest are described in protocol/PROTOCOL.md, "turn".
choose <- function(turn) {
  turn$legal[[1]]
}

send <- function(text) {
  # One string, the newline in it: cat() with two pieces may write them apart, and a message left a moment
  # without its newline (on a busy machine) is read as one the bot forgot to end.
  cat(paste0(text, "\n"))
  flush(stdout()) # the referee is waiting for this line
}

input <- file("stdin", open = "r")
repeat {
  line <- readLines(input, n = 1) # a line of any length
  if (length(line) == 0) break # end of input: the referee has gone
  msg <- read_message(line)
  if (identical(msg$type, "quit")) break
  if (identical(msg$type, "hello")) {
    send('{"type":"ready","name":"r-kit"}')
  } else if (identical(msg$type, "turn")) {
    answer <- choose(msg)
    # "cards" is a list of strings: I() keeps a single card an array after auto_unbox.
    if (!is.null(answer$cards)) answer$cards <- I(unlist(answer$cards))
    send(write_message(answer))
  } else if (identical(msg$type, "error")) {
    message("r-kit: the referee reports a fault: ", msg$message) # message() writes to stderr
  } # start, event, round_end, game_end: information, never answered
}
