<?php
// bot.php - a Last Card starter bot in PHP (the CLI), no extensions beyond the built-in json.
//
// Run: php bot.php      Check: lastcard check "php bot.php"
//
// The referee writes one JSON object per line on stdin (protocol/PROTOCOL.md). This bot answers
//   hello -> ready,   turn -> one element of the turn's "legal" list (each is a complete answer),
// exits on quit or at the end of input, and treats every other message as information.

// The strategy: your code goes here. Return one element of $turn['legal']. Plays come first in the
// list, draw or pass last, so the first element plays whenever a card can be played. $turn['hand'],
// $turn['top'], $turn['colour'], $turn['hands'] and the rest are described in protocol/PROTOCOL.md.
function choose(array $turn): array
{
    return $turn['legal'][0];
}

// Write one line and flush it: the referee is waiting for it.
function send(array $message): void
{
    fwrite(STDOUT, json_encode($message, JSON_UNESCAPED_SLASHES) . "\n");
    fflush(STDOUT);
}

while (($line = fgets(STDIN)) !== false) { // fgets without a length reads a line of any length
    $msg = json_decode($line, true);
    $type = $msg['type'] ?? null;
    if ($type === 'quit') {
        break;
    } elseif ($type === 'hello') {
        send(['type' => 'ready', 'name' => 'php-kit']);
    } elseif ($type === 'turn') {
        send(choose($msg));
    } elseif ($type === 'error') {
        fwrite(STDERR, "php-kit: the referee reports a fault: {$msg['message']}\n");
    } // start, event, round_end, game_end: information, never answered
}
