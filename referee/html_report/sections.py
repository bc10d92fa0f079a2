"""The page's static sections as HTML: standings, stages, head to head, faults."""

from __future__ import annotations

import shlex
from typing import Callable, Iterable, Sequence, cast

from referee.engine.jsondata import JsonObject
from referee.html_report.markup import esc, replay_command
from referee.html_report.rating_chart import rating_chart
from referee.html_report.tally import FAULT_DETAILS, Faulted, RoundRow, StageRow, has_breakdown
from referee.protocol.faults import FaultJson
from referee.replay.requests import ask_command, fault_request, request_line
from referee.standings.model import Standings
from referee.standings.render import column_notes, columns
from referee.store.bot_logs import stderr_by_game
from referee.store.game_source import STDERR_TAIL_LINES, stderr_path, stderr_tail
from referee.store.handout import HERE, Handout
from referee.store.ranking_shapes import HeadToHeadJson
from referee.store.results import GameLineJson


def standings_section(standings: Standings | None, handout: Handout | None = None) -> str:
    """The standings table as every surface draws it (``standings_render.columns``), the bots left out with
    their reasons (no path of this machine in them: ``handout``), the legend and the rating chart."""
    if standings is None or not (standings.rows or standings.left_out):
        return "<section id=standings><h2>Standings</h2><p>No standings yet (results.json is missing).</p></section>"
    cols = columns(standings)
    head = "".join(f"<th class={'txt' if c.left else 'num'}>{esc(c.header)}</th>" for c in cols)
    rows = []
    for r in standings.rows:
        cells = "".join(f"<td class={'bot' if c.header == 'bot' else 'txt' if c.left else 'num'}>{esc(c.cell(r))}</td>"
                        for c in cols)
        rows.append(f"<tr data-bot='{esc(r.bot)}'>{cells}</tr>")
    for x in standings.left_out:
        rows.append(f"<tr class=left-out data-bot='{esc(x.bot)}'><td class=num>-</td><td class=bot>{esc(x.bot)}</td>"
                    f"<td class=txt colspan={len(cols) - 2}>left out: "
                    f"{esc(handout.text(x.reason) if handout else x.reason)}</td></tr>")
    rule = f"<p class=rule>Order: {esc(standings.rule)}.</p>" if standings.rule else ""
    legend = "".join(f"<li>{esc(n)}</li>" for n in column_notes(standings))
    table = (f"{rule}<table class=standings><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
             f"<ul class=legend>{legend}</ul>")
    return (f"<section id=standings><h2>Standings</h2>{table}{rating_chart(standings.rows)}"
            f"{_stage_records(standings)}</section>")


def _stage_records(standings: Standings) -> str:
    """Each stage's own records, for a run of more than one stage."""
    if len(standings.stages) < 2:
        return ""
    parts = ["<h3>By stage</h3>"]
    for st in standings.stages:
        rows = "".join(f"<tr><td class=bot>{esc(r.bot)}</td><td class=num>{r.games}</td><td class=num>{r.wins}</td>"
                       f"<td class=num>{r.draws}</td><td class=num>"
                       f"{'-' if r.avg_place is None else f'{r.avg_place:.2f}'}</td></tr>" for r in st.records)
        parts.append(f"<h4>{esc(st.name)} ({esc(st.format)}, {st.games} games)</h4><table class=stage-records><thead>"
                     "<tr><th class=txt>bot</th><th class=num>games</th><th class=num>wins</th><th class=num>draws</th>"
                     f"<th class=num>avg place</th></tr></thead><tbody>{rows}</tbody></table>")
    return "".join(parts)


def stages_section(stages: Sequence[StageRow], bots: Sequence[str]) -> str:
    if not has_breakdown(stages):
        return ""
    order = {name: i for i, name in enumerate(bots)}

    def names(values: Iterable[str]) -> str:
        return ", ".join(esc(n) for n in sorted(values, key=lambda n: (order.get(n, len(order)), n)))

    rows = []
    for i, stage in enumerate(stages):
        after = stages[i + 1] if i + 1 < len(stages) else None
        several = len(stage.rounds) > 1
        head = (f"<th rowspan={len(stage.rounds)} class=stage><a href='#games' class=stage-filter "
                f"data-filter='{esc(stage.name)}'>{esc(stage.name)}</a>"
                f"<small>{esc(stage.format)} · {esc(stage.ruleset)}</small></th>")
        for j, r in enumerate(stage.rounds):
            key = f"{stage.name}|{r.number}" if several else stage.name
            through = _went_through(stage, r, after, names) if j == len(stage.rounds) - 1 or r.advanced else "-"
            rows.append(f"<tr data-stage='{esc(stage.name)}' data-round='{r.number}'>{head if j == 0 else ''}"
                        f"<td class=bot>{esc(r.label) if several else '(one round)'}</td>"
                        f"<td>{'' if r.tables is None else r.tables}</td>"
                        f"<td><a href='#games' class=stage-filter data-filter='{esc(key)}'>{r.games}</a></td>"
                        f"<td class=names>{len(r.players)}: {names(r.players)}</td><td class=names>{through}</td></tr>")
    return ("<section id=stages><h2>Stages</h2><p>Each stage and its rounds: who played, and who went through. "
            "A number of games lists them below.</p><div class=scroll><table class=stages><thead><tr><th>stage</th>"
            "<th>round</th><th>tables</th><th>games</th><th>played</th><th>went through</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div></section>")


def _went_through(stage: StageRow, r: RoundRow, after: StageRow | None, names: Callable[[Iterable[str]], str]) -> str:
    """Who went on from a round: a knockout's ``advanced``, or (after a stage's last round) the next stage's players."""
    if r.advanced:
        return f"{len(r.advanced)}: {names(r.advanced)}"
    if r.advanced is not None:
        return "(the final: the standings give its order)"
    if after is None or not after.players:
        return "-"
    if set(after.players) == set(stage.players):
        return f"all {len(after.players)} to {esc(after.name)}"
    return f"to {esc(after.name)}: {len(after.players)}: {names(after.players)}"


def h2h_section(h2h: HeadToHeadJson | None) -> str:
    if not h2h or not h2h.get("bots"):
        return "<section id=h2h><h2>Head to head</h2><p>No games between bots yet.</p></section>"
    names = h2h["bots"]
    head = "".join(f"<th class=v><span>{esc(n)}</span></th>" for n in names)
    rows = []
    for i, name in enumerate(names):
        cells = []
        for j in range(len(names)):
            met = h2h["meetings"][i][j]
            if i == j or not met:
                cells.append("<td class=none></td>")
                continue
            share = h2h["ahead"][i][j] / met
            hue = round(share * 120)  # red (behind) to green (ahead)
            cells.append(f"<td style='background:hsl({hue},60%,85%)' title='{esc(name)} ahead of {esc(names[j])} in "
                         f"{h2h['ahead'][i][j]} of {met} games'>{100 * share:.0f}%</td>")
        rows.append(f"<tr><th>{esc(name)}</th>{''.join(cells)}</tr>")
    return ("<section id=h2h><h2>Head to head</h2><p>How often the row's bot placed ahead of the column's, over the "
            f"games they met.</p><div class=scroll><table class=h2h><thead><tr><th></th>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div></section>")


def faults_section(out_dir: str, faulted: Faulted, bots: Sequence[str], handout: Handout | None = None) -> str:
    handout = handout or Handout(out_dir)
    by_bot = faulted.shown
    if not by_bot:
        return "<section id=faults><h2>Faults</h2><p>No bot made a fault.</p></section>"
    parts = ["<section id=faults><h2>Faults</h2><p>Every fault a bot made, for its author: the request it got, what "
             "it sent back, its stderr, and the command that replays the game from its seat.</p>"]
    for bot in sorted(by_bot, key=lambda b: (bots.index(b) if b in bots else len(bots), b)):
        found = by_bot[bot]
        kinds = faulted.kinds[bot]
        total = sum(kinds.values())
        parts.append(f"<details class=bot-faults data-bot='{esc(bot)}'><summary><b>{esc(bot)}</b>: {total} "
                     f"fault{'s' if total != 1 else ''} ({esc(', '.join(f'{k} {v}' for k, v in kinds.items()))})"
                     "</summary>")
        per_game = stderr_by_game(stderr_path(out_dir, bot))
        if not per_game:  # a log from before games were marked in it: its end is all there is
            tail = stderr_tail(out_dir, bot)
            if tail:
                parts.append(f"<p>The end of its stderr log (all its games):</p><pre class=stderr>"
                             f"{esc(handout.text(tail))}</pre>")
        for line, fault in found[:FAULT_DETAILS]:
            parts.append(_fault_detail(out_dir, line, fault, handout))
            mine = per_game.get((line["game"], fault.get("seat")), [])[-STDERR_TAIL_LINES:]
            if mine:
                parts.append(f"<p>Its stderr in game {esc(line['game'])} (the last {len(mine)} lines):</p>"
                             f"<pre class=stderr>{esc(handout.text(chr(10).join(mine)))}</pre>")
        if total > len(found):
            parts.append(f"<p>… and {total - len(found)} more: filter the games list by {esc(bot)} with "
                         "faults.</p>")
        parts.append("</details>")
    parts.append("</section>")
    return "".join(parts)


def _fault_detail(out_dir: str, line: GameLineJson, fault: FaultJson, handout: Handout) -> str:
    seat = fault.get("seat")
    game_id = line.get("game", "?")
    command = f"{replay_command()} {shlex.quote(str(game_id))}" + (f" --seat {seat}" if seat is not None else "")
    turn, request = fault_request(out_dir, cast(JsonObject, line), fault)  # read as the stored game's readers do
    # A game with a fault keeps its full record: the request exactly as the bot got it, clock and id included.
    exact = request_line(out_dir, str(game_id), seat, fault.get("request_id")) if fault.get("request_id") else None
    if exact is not None:
        request = exact
    where = f"turn {turn}" if turn is not None else "before its first turn"
    sent = fault.get("line")
    return (f"<div class=fault><p><b>{esc(fault.get('kind', '?'))}</b> in game "
            f"<a href='#game={esc(game_id)}&turn={turn if turn is not None else 0}' class=open-game "
            f"data-game='{esc(game_id)}' data-turn='{turn if turn is not None else 0}'>{esc(game_id)}</a>, seat "
            f"{seat}, {where}: {esc(handout.text(str(fault.get('message', ''))))}</p>"
            f"<p>The request:</p><pre>{esc(request)}</pre>"
            f"<p>What it sent back:</p><pre>{esc(sent if sent is not None else '(nothing)')}</pre>"
            f"<p>Replay it (in the results folder): <code>{esc(command)}</code></p>"
            + (f"<p>Ask your bot of today the same: "
               f"<code>{esc(ask_command(HERE, str(game_id), seat, turn))}</code></p>"
               if seat is not None else "") + "</div>")
