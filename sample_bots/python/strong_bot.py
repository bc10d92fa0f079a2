#!/usr/bin/env python3
"""A strong heuristic Last Card bot (standard library only).

It speaks the JSON-lines protocol of protocol/PROTOCOL.md, like random_bot.py,
but on each `turn` it gives every element of `legal` a score and answers with
the best one, written back unchanged. It never builds a move of its own, so it
can never make an illegal one. Ties go to the earliest element of `legal`, and
nothing is random, so the bot is deterministic.

The heuristics are the "Playing it well" advice of the family rules:
  * play rather than draw, and shed as many cards as possible (arcade stacks);
  * keep wilds for when nothing else plays (and as a sure last card);
  * name the colour you hold most of, and prefer plays that leave the colour
    on a suit you hold plenty of;
  * save Skip / Draw Two (and Wild Draw Four) for when the next player is down
    to one or two cards (with 3+ players; with two each one is an extra turn);
  * once anybody is close to going out, play your heaviest cards first;
  * arcade: prefer the variant with "call": true (forgetting costs a card);
  * after drawing, play the drawn card unless it is a wild worth keeping;
  * facing a stacked penalty, answer it with a draw card if you can.

The protocol is spoken by botkit.py beside this file (a copy of referee/botkit.py), so the bot needs
nothing installed and runs sandboxed.

Run:  python3 sample_bots/python/strong_bot.py
"""
import botkit

CLOSE = 2  # "close to going out": a hand of this many cards or fewer


# ---------------------------------------------------------------- cards ----

def colour_of(card):
    """'red:7' -> 'red'; wilds ('wild', 'wild4') have no colour -> None."""
    return card.split(":", 1)[0] if ":" in card else None


def rank_of(card):
    """'red:7' -> '7', 'red:skip' -> 'skip', 'wild4' -> 'wild4'."""
    return card.split(":", 1)[1] if ":" in card else card


def is_wild(card):
    return ":" not in card


def points(card):
    """What a card left in your hand gives the winner."""
    if is_wild(card):
        return 50
    rank = rank_of(card)
    return int(rank) if rank.isdigit() else 20  # skip / reverse / draw2 = 20


def colour_counts(cards):
    """How many coloured cards of each colour are in `cards`."""
    counts = {}
    for card in cards:
        colour = colour_of(card)
        if colour:
            counts[colour] = counts.get(colour, 0) + 1
    return counts


def remove_cards(hand, cards):
    """The hand left after laying `cards` (one copy removed per card)."""
    left = list(hand)
    for card in cards:
        if card in left:
            left.remove(card)
    return left


# ------------------------------------------------------------- strategy ----

class Strategy:
    def __init__(self):
        self.you = 0  # our seat: from `hello`, then from every `start`

    def choose(self, turn):
        """Return the element of turn['legal'] with the best score."""
        legal = turn["legal"]
        best, best_score = legal[0], None
        for answer in legal:
            score = self.score(answer, turn)
            if best_score is None or score > best_score:  # ties: first wins
                best, best_score = answer, score
        return best

    def score(self, answer, turn):
        hand = turn.get("hand") or []
        hands = turn.get("hands") or []
        kind = answer.get("type")

        if kind == "colour":  # naming the colour of an opening Wild
            counts = colour_counts(hand)
            colour = answer.get("colour")
            weight = sum(points(c) for c in hand if colour_of(c) == colour)
            return counts.get(colour, 0) * 1000 + weight

        if kind in ("draw", "pass"):
            return 0  # every play below scores more: prefer playing to drawing

        if kind != "play":
            return -1000  # unknown kind of answer: only if nothing else

        cards = answer.get("cards") or []
        left = remove_cards(hand, cards)
        n = len(hands)
        me = self.you if 0 <= self.you < n else 0
        others = [count for seat, count in enumerate(hands) if seat != me]
        danger = any(count <= CLOSE for count in others)  # somebody is close
        step = 1 if turn.get("direction", 1) >= 0 else -1
        next_count = hands[(me + step) % n] if n > 1 else 99

        if not left:
            return 1_000_000  # going out wins the round: always do it

        score = 100 + 30 * len(cards)  # a play beats a draw; more cards, better

        # After drawing (phase "drawn") only the drawn card plays: play it,
        # unless it is a wild we would rather keep (nobody close, hand not small).
        if turn.get("phase") == "drawn" and any(is_wild(c) for c in cards):
            if not danger and len(hand) > 3:
                return -1  # below "pass" (0): keep the wild

        # Keep wilds for when nothing else plays (less strictly when in danger:
        # a wild is 50 points in our hand if somebody else goes out).
        if any(is_wild(c) for c in cards):
            score -= 20 if danger else 80

        # Skip / Draw Two / Wild Draw Four (and Reverse with two players) hit
        # the next player: use them when that player is close, save them else.
        # With two players they also give us another turn at once, so they are
        # not held back there (that tested clearly stronger).
        hitters = ("skip", "draw2", "wild4") + (("reverse",) if n == 2 else ())
        hits = [c for c in cards if rank_of(c) in hitters]
        if hits:
            if next_count <= CLOSE:
                score += 60 + 15 * len(hits)
                score += sum(10 for c in hits if rank_of(c) in ("draw2", "wild4"))
            elif not danger and n > 2:
                score -= 25

        # Heaviest cards first once anybody is close; a slight lean otherwise.
        heavy = sum(points(c) for c in cards)
        score += heavy * (1.0 if danger else 0.1)

        # Leave the colour on a suit we hold many of, so we can follow it.
        # For a wild the colour is the one named (legal holds every choice).
        last = cards[-1]
        new_colour = answer.get("colour") if is_wild(last) else colour_of(last)
        score += 8 * colour_counts(left).get(new_colour, 0)

        # One card left and it is a wild: a sure way out next turn.
        if len(left) == 1 and is_wild(left[0]):
            score += 60

        # Arcade: a play leaving one card must carry the call (else +1 card).
        if answer.get("call"):
            score += 5
        elif len(left) == 1:
            score -= 50
        return score


# ------------------------------------------------------------- protocol ----

strategy = Strategy()


def choose(turn):
    strategy.you = turn.you  # this game's seat, from its `start`
    return strategy.choose(turn.message)


if __name__ == "__main__":
    # botkit answers legal[0] (and says why on stderr) if the heuristics ever fail.
    botkit.run(choose, "python-strong", ready={"author": "lastcard", "version": "1"})
