"""A stage agent's return, as the pipeline reads it: the validator block, then at most one blame line,
then the verdict line, and nothing after.

    <VALIDATOR_OUTPUT>
    $ scripts/validate_kernel.py rms_norm
    ...what it printed...
    exit=0
    </VALIDATOR_OUTPUT>
    BLAME: kernel
    VERDICT: FAIL

Only this tail is read; whatever the agent wrote before it is not. A return is malformed when the block or
the verdict is missing, when text follows the verdict, when a command has no exit status, or when the
block's exit statuses contradict a passing verdict.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

BLAMES = ("host", "kernel", "env")

_TAIL = re.compile(
    r"<VALIDATOR_OUTPUT>\n(?P<block>.*?)\n?</VALIDATOR_OUTPUT>\n"
    r"(?:BLAME: (?P<blame>\S+)\n)?"
    r"VERDICT: (?P<verdict>[A-Z_]+)\n?\Z",
    re.S,
)
_COMMAND = re.compile(r"^\$ (?P<command>.+)$", re.M)
_EXIT = re.compile(r"^exit=(?P<code>-?\d+)$", re.M)


@dataclass(frozen=True)
class Command:
    command: str
    exit_code: int


@dataclass(frozen=True)
class Return:
    verdict: str
    blame: str | None
    commands: tuple[Command, ...]


class MalformedReturn(ValueError):
    """What is wrong with a return, in words the agent can act on."""


def parse(text: str) -> Return:
    """The return at the end of `text`; MalformedReturn says what is missing or wrong."""
    start = text.rfind("<VALIDATOR_OUTPUT>")
    if start < 0:
        raise MalformedReturn("no <VALIDATOR_OUTPUT> block")
    match = _TAIL.match(text.rstrip("\n") + "\n", start)
    if not match:
        raise MalformedReturn(
            "the block must end with </VALIDATOR_OUTPUT>, then an optional 'BLAME: host|kernel|env' line, then "
            "one 'VERDICT: NAME' line and nothing after it"
        )
    block = match.group("block")
    commands = _commands(block)
    blame = match.group("blame")
    if blame is not None and blame not in BLAMES:
        raise MalformedReturn(f"BLAME is {blame!r}; it must be one of {', '.join(BLAMES)}")
    return Return(match.group("verdict"), blame, commands)


def _commands(block: str) -> tuple[Command, ...]:
    """Each `$ command` with the `exit=N` that closes its output."""
    starts = list(_COMMAND.finditer(block))
    if not starts:
        raise MalformedReturn("the block holds no '$ command' line")
    commands = []
    for k, start in enumerate(starts):
        end = starts[k + 1].start() if k + 1 < len(starts) else len(block)
        exits = list(_EXIT.finditer(block, start.end(), end))
        if not exits:
            raise MalformedReturn(f"the command '{start.group('command')}' has no exit=N line")
        commands.append(Command(start.group("command"), int(exits[-1].group("code"))))
    return tuple(commands)
