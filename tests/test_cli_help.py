"""The help a new user reads: every command summed up in one complete line, an example that
works, flags shown as flags, and nothing that reads as unfinished (issue numbers, optional
extras that are not optional)."""

import functools
import inspect
import os
import re
import shlex
import subprocess
import sys

import click
import typer

from gwe_fast.cli import app

#: a summary fits beside the longest command name (copy-scenario) in 80 columns
SUMMARY_WIDTH = 59


def commands() -> dict[str, click.Command]:
    """Every command by its full name (``map render`` for a sub-command)."""
    root = typer.main.get_command(app)
    out = {}

    def walk(group, prefix):
        for name, cmd in group.commands.items():
            full = f"{prefix}{name}"
            if isinstance(cmd, click.Group):
                walk(cmd, full + " ")
            out[full] = cmd

    walk(root, "")
    return out


@functools.cache
def help_text(*args: str) -> str:
    env = {**os.environ, "COLUMNS": "80", "TERM": "dumb", "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-c", "from gwe_fast.cli import main; main()",
                           *args, "--help"], capture_output=True, text=True, env=env,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def all_help() -> dict[str, str]:
    return {"gwe": help_text(), **{name: help_text(*name.split()) for name in commands()}}


def test_item_12_every_command_has_a_one_line_summary_and_an_example():
    for name, cmd in commands().items():
        doc = inspect.cleandoc(cmd.help or "")
        summary = doc.split("\n\n")[0]
        assert "\n" not in summary, f"gwe {name}: the summary runs over two lines: {summary!r}"
        assert summary.endswith("."), f"gwe {name}: the summary is not a sentence: {summary!r}"
        assert len(summary) <= SUMMARY_WIDTH, f"gwe {name}: summary too long: {summary!r}"
        assert re.search(r"^Example: gwe \S", doc, re.MULTILINE), f"gwe {name}: no example"
    listing = help_text()                              # gwe --help, 80 columns
    rows = listing.split("Commands:\n")[1].splitlines()
    shown = dict(row.split(None, 1) for row in rows if row.strip())
    assert set(shown) == {n for n in commands() if " " not in n}
    for name, summary in shown.items():                # whole, on one line: not cut short
        assert summary == inspect.cleandoc(commands()[name].help).split("\n\n")[0], name


def test_item_12_flags_show_no_bool_metavar_and_matplotlib_is_not_an_extra():
    for name, text in all_help().items():
        assert "<bool>" not in text, f"gwe {name} --help shows <bool>"
        assert "[render]" not in text and "Needs matplotlib" not in text, name


def examples(doc: str) -> list[list[str]]:
    """The examples of a help text, each a list of commands: an ``Example:`` line and the
    indented lines under it, split at ``&&``."""
    out = []
    for block in re.findall(r"^Example: (gwe .*(?:\n {9}gwe .*)*)", doc, re.MULTILINE):
        out.append([c.strip() for line in block.splitlines() for c in line.split("&&")])
    return out


def test_item_12_replay_example_reads_a_file_its_example_writes():
    for name, cmd in commands().items():
        for example in examples(inspect.cleandoc(cmd.help or "")):
            written = set()
            for command in example:
                args = shlex.split(command)
                for flag, value in zip(args, args[1:]):
                    if flag == "--from":
                        assert value in written, (
                            f"gwe {name}: the example reads {value}, which no default run "
                            f"writes and the example does not make first: {example}")
                    if flag == "--out":
                        written.add(value)


def test_item_11_bench_help_cites_no_issue_numbers():
    for name, text in all_help().items():
        assert not re.search(r"\bissues? \d", text, re.IGNORECASE), f"gwe {name}: {text}"
