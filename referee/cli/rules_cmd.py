"""``lastcard rules [RULESET]``: a ruleset's options and defaults."""

from __future__ import annotations

import click

from referee.engine.rules import OPTIONS, PRESETS, TARGETS


@click.command("rules")
@click.argument("ruleset", required=False, type=click.Choice(list(PRESETS)))
def rules_cmd(ruleset: str | None) -> None:
    """Print a ruleset's options and defaults (all three rulesets side by side without RULESET)."""
    names = [ruleset] if ruleset else list(PRESETS)
    width = max(len(k) for k in OPTIONS)
    header = "option".ljust(width) + "  " + "  ".join(n.ljust(10) for n in names)
    click.echo(header)
    click.echo("-" * len(header))
    for key in OPTIONS:
        values = "  ".join(str(getattr(PRESETS[n], key)).lower().ljust(10) for n in names)
        click.echo(f"{key.ljust(width)}  {values}")
    click.echo()
    for key, (allowed, meaning) in OPTIONS.items():
        if key == "target":
            choices = "; ".join(f"{n}: {', '.join(map(str, TARGETS[n]))}" for n in names)
            click.echo(f"{key}: {meaning}\n    allowed: {choices}")
        elif allowed is None:
            click.echo(f"{key}: {meaning}")
        else:
            click.echo(f"{key}: {meaning}\n    allowed: {', '.join(str(a).lower() for a in allowed)}")
    click.echo("\nOverride any option with --option KEY=VALUE; docs/rules.md has every ruling.")
