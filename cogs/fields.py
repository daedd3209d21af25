"""Slash-command options built from what the registered systems declare
(:class:`engine.core.present.Field`): ``/dogfight new`` asks every system's lobby
options, ``/dogfight join`` their seats' extras, ``/dogfight aircraft`` their
catalogue's filters, each host switch is a subcommand. The cogs name none of them.

A callback takes ``**options`` and gets the values given (or the defaults); its
signature is built here so discord.py sees typed options (ranges, choices), and each
option's description carries its catalogue key (:func:`cogs.help.cmd_text`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from typing import Any, Literal

import discord
from discord import app_commands

from bot.systems import hosted, hosted_ids
from cogs.help import cmd_text
from engine.core.present import Field, FieldKind, Presenter, Switch

__all__ = ["describe", "fields_of", "signature", "switches"]


def _presenters() -> list[Presenter]:
    return [hosted(s).presenter() for s in hosted_ids()]


def fields_of(which: Callable[[Presenter], Iterable[Field]]) -> tuple[Field, ...]:
    """The union of one kind of field over every registered system, in registry order;
    two systems declaring one name must declare the same field."""
    out: dict[str, Field] = {}
    for presenter in _presenters():
        for f in which(presenter):
            if f.name in out and out[f.name] != f:
                raise ValueError(f"two systems declare option {f.name!r} differently")
            out.setdefault(f.name, f)
    return tuple(out.values())


def switches() -> tuple[Switch, ...]:
    """Every system's host switches (one subcommand each, by command name)."""
    out: dict[str, Switch] = {}
    for presenter in _presenters():
        for s in presenter.switches():
            out.setdefault(s.command, s)
    return tuple(out.values())


def _annotation(f: Field) -> Any:
    if f.kind is FieldKind.BOOL:
        base: Any = bool
    elif f.kind is FieldKind.INT:
        base = (
            app_commands.Range[int, f.low, f.high]
            if f.low is not None and f.high is not None
            else int
        )
    elif f.kind is FieldKind.CHOICE:
        base = Literal[tuple(f.choices)]
    else:  # TEXT, and SUGGEST (its choices are the server's: cogs.dogfight suggests them)
        base = str
    return base | None if f.default is None else base


def parameter(
    f: Field, annotation: Any = None, default: Any = inspect.Parameter.empty
) -> inspect.Parameter:
    return inspect.Parameter(
        f.name,
        inspect.Parameter.KEYWORD_ONLY,
        annotation=annotation if annotation is not None else _annotation(f),
        default=f.default if default is inspect.Parameter.empty else default,
    )


def signature(*groups: Iterable[inspect.Parameter]) -> inspect.Signature:
    """A cog method's signature: ``self``, the interaction, then these options."""
    head = [
        inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        ),
    ]
    params = [p for group in groups for p in group]
    required = [p for p in params if p.default is inspect.Parameter.empty]
    optional = [p for p in params if p.default is not inspect.Parameter.empty]
    return inspect.Signature([*head, *required, *optional])


def describe(fields: Iterable[Field]) -> dict[str, app_commands.locale_str]:
    """The options' descriptions, with their catalogue keys."""
    return {f.name: cmd_text(f.description) for f in fields}
