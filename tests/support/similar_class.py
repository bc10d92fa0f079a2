"""A class with planted copies, for the similarity tests: each bot in a folder of its own, and an arena file.

Copies: ``strong`` (sample_bots/python/strong_bot.py) and ``disguised`` (the same bot with every name changed
and its functions in reverse order, comments gone: ``ast``); ``tuned`` (the same bot with one threshold
changed); ``medium_js`` (sample_bots/js/bot.js) and ``medium_py`` (it translated into Python). Honest:
``heavy`` and ``hoarder`` (small bots of their own), and
``random`` (sample_bots/python/random_bot.py: at random, seeded by the game, so the same twice) and ``coin``
(at random, unseeded: recognised as random).
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_bots"
HERE = Path(__file__).resolve().parent / "similar_bots"

#: Names the disguise gives (a student's search and replace).
RENAMES = {"colour_of": "suit_of_card", "rank_of": "face_of_card", "points": "card_worth", "is_wild": "is_wildcard",
           "colour_counts": "suit_tally", "remove_cards": "hand_without", "Strategy": "Brain", "CLOSE": "NEAR"}

#: Two honest bots of their own: a different idea each.
HEAVY = '''import botkit

def choose(turn):
    def weight(a):
        if a["type"] != "play":
            return -1
        return sum(50 if ":" not in c else (int(c.split(":")[1]) if c.split(":")[1].isdigit() else 20)
                   for c in a.get("cards") or [])
    return max(turn.legal, key=weight)

botkit.run(choose, name="heavy")
'''
#: A bot that plays at random, unseeded: asked the same point twice, it answers differently.
COIN = '''import random
import botkit

pick = random.SystemRandom()
botkit.run(lambda turn: pick.choice(turn.legal), name="coin")
'''
HOARDER = '''import botkit

def choose(turn):
    plays = [a for a in turn.legal if a["type"] == "play" and all(":" in c for c in a.get("cards") or [])]
    if plays:
        return min(plays, key=lambda a: (len(a.get("cards") or []), str(a.get("cards"))))
    return turn.legal[-1]

botkit.run(choose, name="hoarder")
'''


class _Rename(ast.NodeTransformer):
    def visit_Name(self, node: ast.Name) -> ast.AST:
        node.id = RENAMES.get(node.id, node.id)
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        node.name = RENAMES.get(node.name, node.name)
        self.generic_visit(node)
        return node

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        node.name = RENAMES.get(node.name, node.name)
        self.generic_visit(node)
        return node

    def visit_arg(self, node: ast.arg) -> ast.AST:
        node.arg = RENAMES.get(node.arg, node.arg)
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        if node.attr in RENAMES and isinstance(node.value, ast.Name) and node.value.id == "self":
            node.attr = RENAMES[node.attr]
        return node


def disguised(source: str) -> str:
    """The program with its names changed and its top-level functions in reverse order, comments dropped."""
    tree = _Rename().visit(ast.parse(source))
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    others = [n for n in tree.body if not isinstance(n, ast.FunctionDef)]
    first_def = next(i for i, n in enumerate(tree.body) if isinstance(n, ast.FunctionDef))
    tree.body = others[:first_def] + functions[::-1] + others[first_def:]
    return ast.unparse(ast.fix_missing_locations(tree))


def make_class(folder: Path, *, with_js: bool) -> dict[str, str]:
    """The bots' folders under ``folder``; their names and commands (``medium_js`` only ``with_js``)."""
    def bot(name: str, text: str, file: str = "bot.py") -> None:
        home = folder / name
        home.mkdir(parents=True)
        (home / file).write_text(text)
        shutil.copy(SAMPLES / "python" / "botkit.py", home / "botkit.py")

    strong = (SAMPLES / "python" / "strong_bot.py").read_text()
    bot("strong", strong)
    bot("disguised", disguised(strong))
    assert "CLOSE = 2" in strong
    bot("tuned", strong.replace("CLOSE = 2", "CLOSE = 3"))
    bot("medium_py", (HERE / "medium.py").read_text())
    bot("heavy", HEAVY)
    bot("hoarder", HOARDER)
    bot("random", (SAMPLES / "python" / "random_bot.py").read_text())
    bot("coin", COIN)
    commands = {name: f"python3 {folder / name / 'bot.py'}" for name in
                ("strong", "disguised", "tuned", "medium_py", "heavy", "hoarder", "random", "coin")}
    if with_js:
        (folder / "medium_js").mkdir()
        shutil.copy(SAMPLES / "js" / "bot.js", folder / "medium_js" / "bot.js")
        commands["medium_js"] = f"node {folder / 'medium_js' / 'bot.js'}"
    return commands


def arena_yaml(folder: Path, commands: dict[str, str], games: int = 1) -> Path:
    bots = "\n".join(f"  - {{name: {name}, command: '{cmd}'}}" for name, cmd in commands.items())
    path = folder / "class.yaml"
    path.write_text(f"name: class\nseed: 7\nruleset: family\nseats: 4\ngames: {games}\nbootstrap: 0\n"
                    f"bots:\n{bots}\n")
    return path
