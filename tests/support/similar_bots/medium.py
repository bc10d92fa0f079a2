#!/usr/bin/env python3
"""A planted copy for the similarity tests: sample_bots/js/bot.js translated into Python, line for line in
spirit (the same scores, the same tie rule), as a student copying a classmate's JavaScript bot would."""
import botkit


def wild(card):
    return ":" not in card


def suit(card):
    return None if wild(card) else card.split(":")[0]


def count_suit(hand, colour, laid=()):
    rest = list(laid)
    total = 0
    for card in hand:
        if card in rest:
            rest.remove(card)
            continue
        if suit(card) == colour:
            total += 1
    return total


def value(answer, hand):
    if answer["type"] == "colour":
        return count_suit(hand, answer["colour"])
    if answer["type"] != "play":
        return 0
    cards = answer.get("cards") or []
    if len(cards) == len(hand):
        return 1e6
    v = 1000 - (500 if any(wild(c) for c in cards) else 0) + 50 * len(cards)
    if answer.get("colour"):
        v += count_suit(hand, answer["colour"], cards)
    return v + (1 if answer.get("call") else 0)


def choose(turn):
    hand = turn.hand or []
    best, top = turn.legal[0], float("-inf")
    for answer in turn.legal:
        v = value(answer, hand)
        if v > top:
            best, top = answer, v
    return best


botkit.run(choose, name="medium-py")
