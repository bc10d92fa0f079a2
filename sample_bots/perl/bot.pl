#!/usr/bin/perl
# bot.pl - a Last Card starter bot in Perl 5, core modules only (JSON::PP).
#
# Run: perl bot.pl      Check: lastcard check "perl bot.pl"
#
# The referee writes one JSON object per line on stdin (protocol/PROTOCOL.md). This bot answers
#   hello -> ready,   turn -> one element of the turn's "legal" list (each is a complete answer),
# exits on quit or at the end of input, and treats every other message as information.
use strict;
use warnings;
use JSON::PP;

$| = 1;    # flush stdout after every line: the referee is waiting for it
my $json = JSON::PP->new->utf8->canonical;

# The strategy: your code goes here. Return one element of $turn->{legal}. Plays come first in the
# list, draw or pass last, so the first element plays whenever a card can be played. $turn->{hand},
# $turn->{top}, $turn->{colour}, $turn->{hands} and the rest are described in protocol/PROTOCOL.md.
sub choose {
    my ($turn) = @_;
    return $turn->{legal}[0];
}

while (my $line = <STDIN>) {
    my $msg  = $json->decode($line);
    my $type = $msg->{type} // '';
    if    ($type eq 'quit')  { last }
    elsif ($type eq 'hello') { print $json->encode({ type => 'ready', name => 'perl-kit' }), "\n" }
    elsif ($type eq 'turn')  { print $json->encode(choose($msg)), "\n" }
    elsif ($type eq 'error') { print STDERR "perl-kit: the referee reports a fault: $msg->{message}\n" }
    # start, event, round_end, game_end: information, never answered
}
