"""The page's "Bots that help each other" section: collusion.csv (``lastcard collusion``) as a table of pairs, the
strongest evidence first, both kinds of evidence in each row. Every name is escaped (a name is whatever a folder
was called). Worded as evidence to look at, never as a verdict."""

from __future__ import annotations

from referee.html_report.markup import esc
from referee.store.collusion_file import CollusionRow, read_collusion

#: Rows shown besides the pairs to look at.
CLOSEST = 5


def _p(p: float | None) -> str:
    return "" if p is None else "&lt;1e-9" if p < 1e-9 else f"{p:.2g}"


def _hits(chances: int, taken: int, others: int, others_taken: int) -> str:
    if not chances:
        return "no chance"
    rate = f"{others_taken}/{others}" if others else "-"
    return f"{taken}/{chances} (others {rate})"


def _row(r: CollusionRow) -> str:
    gain = "" if r.joint_gain is None else f"{r.joint_gain:+.2f}"
    mark = " class=stands" if r.look else ""
    note = f"<br><small>{esc(r.note)}</small>" if r.note else ""
    return (f"<tr{mark}><th>{esc(r.bot_a)} / {esc(r.bot_b)}{note}</th><td>{r.tables}</td>"
            f"<td title='{esc(r.bot_a)} gained {r.a_from_b or 0:+.2f}, {esc(r.bot_b)} {r.b_from_a or 0:+.2f}'>"
            f"{gain}</td><td>{_p(r.p_joint)}</td>"
            f"<td>{_hits(r.b_hit_a_chances, r.b_hit_a, r.b_hit_others_chances, r.b_hit_others)}</td>"
            f"<td>{_p(r.p_b_spares_a)}</td>"
            f"<td>{_hits(r.a_hit_b_chances, r.a_hit_b, r.a_hit_others_chances, r.a_hit_others)}</td>"
            f"<td>{_p(r.p_a_spares_b)}</td><td>{_p(r.p_adjusted)}</td></tr>")


def collusion_section(out_dir: str) -> str:
    """The section for ``out_dir``, or "" when it has no collusion.csv (or one that cannot be read: said so)."""
    try:
        rows = read_collusion(out_dir)
    except (KeyError, ValueError, TypeError):  # a file edited by hand: the page is still made
        return ("<section id=collusion><h2>Bots that help each other</h2><p>collusion.csv cannot be read: run "
                "<code>lastcard collusion</code> again to write it.</p></section>")
    if rows is None:
        return ""
    looked = [r for r in rows if r.look]
    shown = looked + [r for r in rows if not r.look][:CLOSEST]
    listed = ("<p>Pairs to look at: " + ", ".join(f"<b>{esc(r.bot_a)}</b> and <b>{esc(r.bot_b)}</b>" for r in looked)
              + ".</p>" if looked else "<p>No pair to look at; the closest are below.</p>")
    return ("<section id=collusion><h2>Bots that help each other</h2>"
            "<p>Every stored game was played again on the same deal with one bot's seat taken by a reference player "
            "(<code>lastcard collusion</code>). <i>Joint gain</i>: how much better each of the pair placed (place "
            "score, 1 first to 0 last) with the other at the table than without, beyond the others there, the two "
            "summed. <i>Hit</i>: of the chances one had to play a Draw Two, Wild Draw Four or Skip on the other (the "
            "seat after it), how many it took, against the chances it took on every other seat. The p-values are one-"
            "sided; the last column is the smallest after Holm's correction for every test of the class. Marked "
            f"rows are below the run's error rate.</p>{listed}<p class=rule>This is evidence to look at, not a "
            "verdict: read the games and the two programs before concluding anything (docs/collusion.md).</p>"
            "<div class=scroll><table class='h2h collusion'><thead><tr><th>pair (A / B)</th><th>tables</th>"
            "<th>joint gain</th><th>p</th><th>B hit A</th><th>p</th><th>A hit B</th><th>p</th><th>adjusted p</th>"
            f"</tr></thead><tbody>{''.join(_row(r) for r in shown)}</tbody></table></div></section>")
