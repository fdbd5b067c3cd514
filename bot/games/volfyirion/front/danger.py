"""The danger meter's reply (Volfyirion, V-6) and its what-ifs, readable at small percentages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ....i18n import t
from ....render.notices import Notice, notice

if TYPE_CHECKING:  # the command group imports this module at start, before any game loads the engine
    from engine.volfyirion.danger import Danger
    from engine.volfyirion.house import NextAttack
    from engine.volfyirion.whatif import DangerMeter, Removal

BAR_WIDTH = 16  # characters for the most likely attack value
EIGHTHS = " ▏▎▍▌▋▊▉"


def percent(p: float) -> str:
    """A probability a player can read: "0%", "<0.1%", "5.3%", "53%", "100%" (never "0%" for a real chance)."""
    if p <= 0:
        return "0%"
    if p < 0.001:
        return "<0.1%"
    if p < 0.1:
        return f"{p * 100:.1f}%"
    if p > 0.995 and p < 1:
        return ">99%"
    return f"{p:.0%}"


def bar(p: float, top: float, width: int = BAR_WIDTH) -> str:
    """A bar scaled to the most likely value (so small chances still show), in eighths of a character."""
    if top <= 0 or p <= 0:
        return ""
    eighths = max(1, round(p / top * width * 8))
    return "█" * (eighths // 8) + (EIGHTHS[eighths % 8] if eighths % 8 else "")


def distribution_lines(attack: Sequence[tuple[int, float]]) -> list[str]:
    values = [(value, p) for value, p in attack if p >= 0.0005]
    top = max((p for _, p in values), default=0.0)
    return [f"`{value:>3} {percent(p):>6}` {bar(p, top)}" for value, p in values]


def danger_notice(lg: str, report: DangerMeter, *, details: bool = False) -> Notice:
    """The meter's headline is what a player reads at the table — the chance a city falls, the chance the game
    is lost, and what putting the top card aside would change; ``details`` adds the expected attack, the
    distribution and the formula."""
    now = report.now
    chances: dict[str, Any] = {"p_city": percent(now.p_city_falls), "p_lost": percent(now.p_game_lost)}
    if details:
        said = notice(lg, "danger.text", kind="volfyirion", **chances,
                       sealed=f"{now.expected_wonders_sealed:.2f}", attack=f"{now.expected_attack:.1f}",
                       unknown=now.unknown, method=now.method)
    else:
        said = notice(lg, "danger.headline", kind="volfyirion", **chances)
    if not report.attack_this_turn:
        said.description = t(lg, "danger.lair") + "\n" + said.description
    if details:
        _detail_fields(lg, said, now)
    else:
        _putaside_field(lg, said, report)
    return said


def _putaside_field(lg: str, said: Notice, report: DangerMeter) -> None:
    """The advice: the same chances with the top card put aside (V-2.2), when that is possible."""
    now, after = report.now, report.putaside
    if after is None:
        return
    key = "danger.putaside" if report.putaside_top_known else "danger.putaside.unknown"
    said.add_field(t(lg, "danger.putaside.name"), t(
        lg, key, p_city_before=percent(now.p_city_falls), p_city=percent(after.p_city_falls),
        p_lost_before=percent(now.p_game_lost), p_lost=percent(after.p_game_lost),
        attack_before=f"{now.expected_attack:.1f}", attack=f"{after.expected_attack:.1f}",
    )[:1024])


def _detail_fields(lg: str, said: Notice, now: Danger) -> None:
    """Behind the Details button: the attack's distribution and the formula this game uses (V-4.3, V-5.3) and
    what it adds now."""
    from engine.volfyirion import attack_rule_key

    lines = distribution_lines(now.attack)
    if lines:
        said.add_field(t(lg, "danger.distribution"), "\n".join(lines[:30])[:1000])
    f = now.formula
    rule = t(lg, attack_rule_key(f.reading, f.d), difficulty=f.difficulty, bonus=f.reading, d=f.d)
    added = (t(lg, "volfyirion.danger.bonus_now", bonus=f.bonus) if f.bonus
             else t(lg, "volfyirion.danger.no_bonus_now"))
    said.add_field(t(lg, "volfyirion.danger.formula"), f"{rule}\n{added}"[:1000])


def removal_lines(lg: str, outcomes: Sequence[Removal]) -> str:
    """One line per city the player may take a Troop from: what this attack then destroys."""
    sep = "、" if lg == "ja" else ", "
    lines = []
    for o in outcomes:
        if o.lost:
            outcome = t(lg, "whatif.choose.lost")
        elif o.fallen:
            outcome = t(lg, "whatif.choose.falls", city_names=sep.join(o.fallen))
        else:
            outcome = t(lg, "whatif.choose.none")
        if o.attack is None:
            lines.append(t(lg, "whatif.choose.row_no_attack", city=o.city, outcome=outcome))
        else:
            lines.append(t(lg, "whatif.choose.row", city=o.city, outcome=outcome, attack=o.attack))
    return "\n".join(lines)


def next_attack_lines(lg: str, found: NextAttack) -> str:
    """When the next reshuffle — and so the next attack — comes (V-3.4); or why it cannot be known."""
    if found.why is not None:
        return t(lg, f"volfyirion.next.unknown.{found.why}")
    key = "volfyirion.next.known_now" if found.turns == 0 else "volfyirion.next.known"
    lines = [t(lg, key, draw=found.draw, cards=found.cards, turn=found.turn, turns=found.turns)]
    chances = found.chances
    if chances is None:
        lines.append(t(lg, "volfyirion.next.figures_elsewhere"))
    else:
        lines.append(t(lg, "volfyirion.next.figures", size=chances.size, p_city=percent(chances.p_city_falls),
                       p_lost=percent(chances.p_game_lost)))
    return "\n".join(lines)
