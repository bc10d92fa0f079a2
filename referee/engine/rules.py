"""The one ``Ruleset`` of named options, and the three houses' presets of it."""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from typing import Final, Iterable, Mapping, TypedDict, cast

from referee.errors import BAD_INPUT, LastcardError


class RulesetError(LastcardError, ValueError):
    """An unknown ruleset, an unknown option or a value the option does not allow."""

    exit_code = BAD_INPUT


MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
HAND_SIZE: Final = 7

_COMPACT_TARGETS: Final = tuple(range(100, 1001, 100))
#: Each house's allowed targets; ``round`` means a single round.
TARGETS: Final[dict[str, tuple[int | str, ...]]] = {
    "compact": _COMPACT_TARGETS,
    "family": ("round", 200, 300, 500),
    "arcade": ("round",) + _COMPACT_TARGETS,
}

#: Option name -> (allowed values, one-line meaning). ``target`` is checked per house, see ``TARGETS``.
OPTIONS: Final[dict[str, tuple[tuple[object, ...] | None, str]]] = {
    "deck": (("compact", "standard"),
             "compact: 54 cards in teal/coral/amber/violet, numbers 2-10, doubled for 5-6 players; "
             "standard: 108 cards in red/yellow/green/blue"),
    "wild_draw_four": (("restricted", "any"),
                       "restricted: only when you hold no card of the colour in play; any: at any time"),
    "opening": (("compact", "family", "arcade"),
                "compact: any wild turned up is buried, an opening action acts on the first player; "
                "family: a Wild Draw Four is buried, a Wild's colour is named by the first player, actions act; "
                "arcade: any wild is buried, an opening action is only a card to match"),
    "multi_play": ((False, True), "lay several cards of one number or symbol in one turn, multiplying the effect"),
    "stacking": ((False, True), "answer a Draw Two with a Draw Two, a Wild Draw Four with a Wild Draw Four"),
    "draw_until_playable": ((False, True), "keep drawing until a card plays, then play it or keep it"),
    "last_card_call": (("auto", "required"),
                       "auto: the referee calls for you; required: a play leaving one card must carry the call "
                       "or its player draws one"),
    "end": (("match", "tender"),
            "match: rounds until a total reaches the target; tender: a single game ended by going out, "
            "by the move limit or by a draw that finds nothing, lowest hand wins"),
    "target": (None, "the match target score, or 'round' for a single round (allowed values depend on the house)"),
    "move_limit": (None, "turns in a round (tender: in the game) before it ends; a whole number from 10 to 100000"),
}


class RuleOptions(TypedDict, total=False):
    """The options by name as plain data (``OPTIONS`` says what each means): ``Ruleset.options`` has every one; a
    stored game's or a suite's may have only those it overrides (files from before options were kept whole)."""

    deck: str
    wild_draw_four: str
    opening: str
    multi_play: bool
    stacking: bool
    draw_until_playable: bool
    last_card_call: str
    end: str
    target: int | str
    move_limit: int


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A complete, validated set of rule options. ``house`` names the preset it was derived from."""

    house: str
    deck: str
    wild_draw_four: str
    opening: str
    multi_play: bool
    stacking: bool
    draw_until_playable: bool
    last_card_call: str
    end: str
    target: int | str
    move_limit: int

    @property
    def options(self) -> RuleOptions:
        """The options as plain data (everything but ``house``), in declaration order."""
        return cast(RuleOptions, {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "house"})

    def with_options(self, overrides: Mapping[str, object]) -> Ruleset:
        """A copy with options replaced by name; values may be strings as typed on a command line."""
        # Keys taken as ``object`` (YAML may give a number) and refused by name: a compiled build would check a
        # ``str`` loop variable with a bare TypeError.
        pairs: Iterable[tuple[object, object]] = overrides.items()
        changes: dict[str, object] = {}
        for key, value in pairs:
            name = _option_name(key)
            changes[name] = _coerce(self.house, name, value)
        return dataclasses.replace(self, **cast(RuleOptions, changes))

    @property
    def single_round(self) -> bool:
        """True when one round (or one tender game) decides the result."""
        return self.end == "tender" or self.target == "round"

    @property
    def goal(self) -> str:
        """How the game is won, in words for a person at the table."""
        if self.end == "tender":
            return ("a single game: the first to play their last card wins (if it stops first, the lowest hand "
                    "wins)")
        if self.target == "round":
            return "a single round: the first to play their last card wins"
        return (f"a match to {self.target} points: the winner of each round scores the points left in the other "
                f"hands, and the first to reach {self.target} wins")


PRESETS: Final[dict[str, Ruleset]] = {
    "compact": Ruleset("compact", deck="compact", wild_draw_four="restricted", opening="compact",
                       multi_play=False, stacking=False, draw_until_playable=False, last_card_call="auto",
                       end="match", target=500, move_limit=1000),
    "family": Ruleset("family", deck="standard", wild_draw_four="any", opening="family",
                      multi_play=False, stacking=False, draw_until_playable=False, last_card_call="auto",
                      end="match", target=300, move_limit=1000),
    "arcade": Ruleset("arcade", deck="standard", wild_draw_four="any", opening="arcade",
                      multi_play=True, stacking=False, draw_until_playable=False, last_card_call="required",
                      end="tender", target="round", move_limit=500),
}


def _option_name(key: object) -> str:
    if not isinstance(key, str) or key not in OPTIONS:
        raise RulesetError(f"unknown option {key!r}; the options are: {', '.join(OPTIONS)}")
    return key


def _coerce(house: str, key: str, value: object) -> object:
    allowed, _ = OPTIONS[key]
    if key == "target":
        choices = TARGETS[house]
        v: object = value
        if isinstance(v, str) and v.strip().isdigit():
            v = int(v)
        if v not in choices or isinstance(v, bool):
            shown = ", ".join(str(c) for c in choices)
            raise RulesetError(f"option target={value!r} is not allowed in {house}; allowed: {shown}")
        return v
    if key == "move_limit":
        try:
            v = int(value) if not isinstance(value, float) or value.is_integer() else -1  # type: ignore[call-overload]
        except (TypeError, ValueError):
            v = -1
        if isinstance(value, bool) or not 10 <= v <= 100_000:
            raise RulesetError(f"option move_limit={value!r} must be a whole number from 10 to 100000")
        return v
    assert allowed is not None
    if allowed == (False, True):
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("true", "yes", "on", "1"):
            return True
        if text in ("false", "no", "off", "0"):
            return False
        raise RulesetError(f"option {key}={value!r} must be true or false")
    if value not in allowed:
        raise RulesetError(f"option {key}={value!r} is not allowed; allowed: {', '.join(map(str, allowed))}")
    return value


def option_grid() -> list[tuple[str, RuleOptions]]:
    """Every house with every combination of the six options that change play, for tests and benchmarks.

    Wild Draw Four rule, multi-play, stacking, draw until playable, last-card call, match or tender: 64 sets
    per house; the opening and the deck are taken in turn, and a match plays to a short target.
    """
    out = []
    for house in PRESETS:
        combos = itertools.product(("restricted", "any"), (False, True), (False, True), (False, True),
                                   ("auto", "required"), ("match", "tender"))
        for i, (wd4, multi, stack, until, call, end) in enumerate(combos):
            opts: RuleOptions = {"wild_draw_four": wd4, "multi_play": multi, "stacking": stack,
                                    "draw_until_playable": until, "last_card_call": call, "end": end,
                                    "opening": ("compact", "family", "arcade")[i % 3],
                                    "deck": ("compact", "standard")[(i // 3) % 2]}
            if end == "match":
                opts["target"] = "round" if house != "compact" and i % 2 else (200 if house == "family" else 100)
            out.append((house, opts))
    return out


def get_ruleset(name: object, overrides: Mapping[str, object] | None = None) -> Ruleset:
    """The preset ``name`` with ``overrides`` applied; errors name the allowed rulesets or options."""
    # ``object`` and checked here (YAML may give a number): a compiled build would raise a bare TypeError.
    base = PRESETS.get(name) if isinstance(name, str) else None
    if base is None:
        raise RulesetError(f"unknown ruleset {name!r}; the rulesets are: {', '.join(PRESETS)}")
    return base.with_options(overrides or {})


def parse_option(text: str) -> tuple[str, str]:
    """Split a command-line ``KEY=VALUE``."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise RulesetError(f"option {text!r} is not KEY=VALUE; e.g. --option stacking=true")
    return key.strip(), value.strip()


def check_players(n: object) -> None:
    """Refuse a table size the game does not support (or that is not a whole number)."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise RulesetError(f"{n!r} players: the number of players is a whole number from {MIN_PLAYERS} to "
                           f"{MAX_PLAYERS}")
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise RulesetError(f"{n} players: Last Card is played by {MIN_PLAYERS} to {MAX_PLAYERS} players")
