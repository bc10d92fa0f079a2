"""The page's "Bots that play alike" section: similarity.csv (``lastcard similar``) as a matrix of pairs.

The data (``PlayAlike``: the bots, a cell per pair, the bots that play at random) is built from the typed rows
``store.similarity_file`` reads; ``play_alike_section`` only renders it. Worded as evidence to look at, never
as a verdict: the figures cannot tell copying from two bots that follow the same good advice.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.html_report.markup import esc
from referee.store.similarity_file import BotRow, PairRow, SimilarityFile, read_similarity
from referee.store.text_matches_file import TextMatchesJson, read_text_matches


@dataclass(frozen=True)
class PlayAlike:
    """The matrix's data: the bots compared (in order), each pair's row, the bots left out as random."""

    bots: tuple[str, ...]
    pairs: tuple[PairRow, ...]
    random: tuple[BotRow, ...]

    def pair(self, a: str, b: str) -> PairRow | None:
        """The figures of ``a`` and ``b``, whichever way round the file has them."""
        return next((p for p in self.pairs if {p.bot_a, p.bot_b} == {a, b}), None)

    @property
    def points(self) -> int:
        return max((p.points for p in self.pairs), default=0)

    @property
    def standing_out(self) -> list[PairRow]:
        return [p for p in self.pairs if p.stands_out]


def play_alike(found: SimilarityFile) -> PlayAlike:
    """The section's data from the two files read back."""
    names = sorted({p.bot_a for p in found.pairs} | {p.bot_b for p in found.pairs})
    return PlayAlike(tuple(names), found.pairs, tuple(b for b in found.bots if b.plays_at_random))


def similarity_section(out_dir: str) -> str:
    """The section for ``out_dir``, or "" when it has no similarity.csv (or one that cannot be read)."""
    try:
        found = read_similarity(out_dir)
        texts = read_text_matches(out_dir)
    except (KeyError, ValueError):  # a file edited by hand: the page is still made, without the section
        return ("<section id=similar><h2>Bots that play alike</h2><p>similarity.csv cannot be read: run "
                "<code>lastcard similar</code> again to write it.</p></section>")
    if found is None:
        return ""
    data = play_alike(found)
    section = play_alike_section(data)
    return section.replace("</section>", evidence_blocks(data, texts) + "</section>") if texts else section


def _side(file: str, first: int, lines: list[str]) -> str:
    numbered = "\n".join(f"{first + i:>4}  {line}" for i, line in enumerate(lines))
    return f"<div><b>{esc(file)}</b><pre>{esc(numbered)}</pre></div>"


def evidence_blocks(data: PlayAlike, texts: TextMatchesJson) -> str:
    """For each pair flagged by its play or its text: both kinds of evidence, and the fragments the two programs
    share side by side (every line escaped: nothing a student wrote is rendered as HTML)."""
    blocks = []
    for t in texts["pairs"]:
        play = data.pair(t["a"], t["b"])
        if not t["fragments"] and not (play is not None and play.stands_out):
            continue
        said = (f"play: kappa {play.kappa:.2f}" + (f", {play.beyond_kappa:.2f} beyond {play.reference}"
                                                  if play.beyond_kappa is not None else "")
                + ("; stands out" if play.stands_out else "") if play is not None else "play: not compared")
        frags = "".join(f"<div class=side>{_side(f['a_file'], f['a_first'], f['a_lines'])}"
                        f"{_side(f['b_file'], f['b_first'], f['b_lines'])}</div>" for f in t["fragments"])
        blocks.append(f"<details class=evidence><summary><b>{esc(t['a'])}</b> and <b>{esc(t['b'])}</b>: {esc(said)}; "
                      f"text {t['similarity']:.0%} alike ({t['shared']} shared token fingerprints, "
                      f"{len(t['fragments'])} fragments)</summary>{frags}</details>")
    if not blocks:
        return ""
    return ("<h3>Both kinds of evidence</h3><p>The programs' text, beside their play: token fingerprints "
            f"(winnowing, as MOSS and Dolos do; {texts['k']} tokens a fingerprint, names and literals by their kind), "
            f"the starter code ({esc(texts['base'])}) left out. The fragments two programs share are shown side by "
            "side.</p>"
            + "".join(blocks))


def _title(p: PairRow) -> str:
    return (f"{p.bot_a} and {p.bot_b}: the same answer at {p.agreement:.0%} of {p.points} decision points; "
            f"chance (the class's play) predicts {p.baseline:.0%}; kappa {p.kappa:.2f} (0: chance, 1: identical "
            f"play); {p.z:.1f} standard errors above chance; {p.above_class:+.1f} robust deviations from the "
            f"class's median pair" + ("; stands out" if p.stands_out else ""))


def play_alike_section(data: PlayAlike) -> str:
    """The matrix: kappa per pair, the pairs that stand out marked, every figure in the cell's title."""
    head = "".join(f"<th class=v><span>{esc(n)}</span></th>" for n in data.bots)
    rows = []
    for a in data.bots:
        cells = []
        for b in data.bots:
            p = None if a == b else data.pair(a, b)
            if p is None:
                cells.append("<td class=none></td>")
                continue
            hue = round(max(0.0, min(1.0, p.kappa)) * 40)  # white-ish at chance to amber at identical play
            mark = " class=stands" if p.stands_out else ""
            cells.append(f"<td{mark} data-kappa='{p.kappa:.2f}' style='background:hsl(40,{hue + 20}%,"
                         f"{95 - hue}%)' title='{esc(_title(p))}'>{p.kappa:.2f}</td>")
        rows.append(f"<tr><th>{esc(a)}</th>{''.join(cells)}</tr>")
    standing = data.standing_out
    listed = ("<p>Pairs that stand out: " + ", ".join(f"<b>{esc(p.bot_a)}</b> and <b>{esc(p.bot_b)}</b> "
                                                      f"(kappa {p.kappa:.2f})" for p in standing) + ".</p>"
              if standing else "<p>No pair stands out.</p>")
    random = "".join(f"<li>{esc(b.bot)} plays at random: asked the same point twice, it gave the same answer "
                     f"{b.self_agreement:.0%} of the time; its pairs are not compared.</li>" for b in data.random)
    return ("<section id=similar><h2>Bots that play alike</h2>"
            f"<p>Every bot was asked the same {data.points} decision points from this run's games "
            "(<code>lastcard similar</code>). A cell is the pair's kappa: how far their agreement went from what "
            "the class's play predicts by chance (0) to identical play (1); hover over it for the figures. "
            "Marked cells stand out (kappa 0.6 or more, and beyond chance).</p>"
            f"{listed}<p class=rule>This is evidence to look at, not a verdict: bots that follow the same good advice "
            "agree more than chance. Read the two programs before concluding anything (docs/similar.md).</p>"
            + (f"<ul class=legend>{random}</ul>" if random else "")
            + f"<div class=scroll><table class='h2h similar'><thead><tr><th></th>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div></section>")
