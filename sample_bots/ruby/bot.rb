# bot.rb - a Last Card starter bot in Ruby, standard library only (json).
#
# Run: ruby bot.rb      Check: lastcard check "ruby bot.rb"
#
# The referee writes one JSON object per line on stdin (protocol/PROTOCOL.md). This bot answers
#   hello -> ready,   turn -> one element of the turn's "legal" list (each is a complete answer),
# exits on quit or at the end of input, and treats every other message as information.
require "json"

$stdout.sync = true # flush every line: the referee is waiting for it

# The strategy: your code goes here. Return one element of turn["legal"]. Plays come first in the
# list, draw or pass last, so the first element plays whenever a card can be played. turn["hand"],
# turn["top"], turn["colour"], turn["hands"] and the rest are described in protocol/PROTOCOL.md.
def choose(turn)
  turn["legal"].first
end

$stdin.each_line do |line|
  msg = JSON.parse(line)
  case msg["type"]
  when "hello" then puts JSON.generate({ "type" => "ready", "name" => "ruby-kit" })
  when "turn" then puts JSON.generate(choose(msg))
  when "error" then warn "ruby-kit: the referee reports a fault: #{msg["message"]}" # stderr
  when "quit" then break
  end # start, event, round_end, game_end: information, never answered
end
