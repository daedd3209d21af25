"""The after-action report of a finished game: the result, VP by side, each aircraft's
fate and who caused it, and the decisive exchanges.

The result and the sides are generic; each aircraft's line and the exchanges are the
system's words (its presenter's ``report``, from the typed outcome and the replayed
moves). It is a :class:`rendering.report.ReportView` (public data only), drawn by
:mod:`rendering.report`; :func:`report_text` writes it for the thread's message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games import result_record
from bot.history import History
from bot.verify import vp_words
from rendering.report import ExchangeLine, ReportView
from strings import Term, tr

__all__ = ["after_action_report", "report_text"]


def after_action_report(
    history: History,
    *,
    title: str,
    result: Mapping[str, Any] | None,
    players: Mapping[str, str],
    verdict: str | None = None,
) -> ReportView:
    """The report of a game. Its words are :class:`Term` texts (English as ``str``: the
    picture draws them so; :func:`report_text` puts them in a language); the verdict is
    the stored result's, or ``verdict`` (the same, as a Term: ``bot.results.verdict_term``)."""
    system, final = history.system, history.final
    outcome = system.outcome(final)
    written = system.presenter().report(history.start, history.moves, outcome, players)
    res = dict(result) if result else (result_record(outcome) if outcome.over else {})
    vp = res.get("vp") or dict(outcome.vp)
    sides = system.sides(final)
    return ReportView(
        title=title,
        verdict=verdict or str(res.get("verdict") or "") or Term("report.no_result"),
        sides=sides,
        winner=res.get("winner"),
        vp={s.id: int(vp.get(s.id, 0)) for s in sides},
        turns=outcome.rounds,
        aircraft=written.aircraft,
        exchanges=tuple(ExchangeLine(turn, text) for turn, text in written.exchanges),
        no_exchanges=written.no_exchanges,
    )


def report_text(report: ReportView, *, limit: int = 1900, language: str = "en") -> str:
    """The report in words, for the thread message that carries its picture."""

    def say(key: str, **fields: Any) -> str:
        return Term(key, **fields).text(language)

    vp = tr(vp_words(report.sides, report.vp), language)
    lines = [
        say("report.head", title=report.title),
        say("report.verdict", verdict=report.verdict, vp=vp),
    ]
    for a in report.aircraft:
        lines.append(
            say(
                "report.aircraft",
                label=a.label,
                player=a.player,
                fate=a.fate,
                detail=", " + tr(a.detail, language) if a.detail else "",
                taken=a.hits_taken,
                given=a.hits_given,
            )
        )
    if report.exchanges:
        lines.append(say("report.exchanges"))
        lines += [say("report.exchange_line", turn=x.turn, text=x.text) for x in report.exchanges]
    elif report.no_exchanges:
        lines.append(tr(report.no_exchanges, language))
    out: list[str] = []
    size = 0
    for i, line in enumerate(lines):
        if size + len(line) + 1 > limit - 40:
            out.append(say("report.more", n=len(lines) - i))
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)
