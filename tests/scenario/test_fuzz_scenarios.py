"""Fuzz test of the scenario loader (issue 29): a few hundred seeded mutations of the bundled
scenario files of both games, each either refused by ``gwe validate`` with exit status 2 and
every fault located (file, and key or line), or accepted and then played for a few
Game-Turns without an exception. A variant that crashes validation, or passes it and then
fails in play, is a bug of the loader: it must be refused with a located fault."""

from __future__ import annotations

import json
import pickle
import random
import re
import shutil
import tomllib
from pathlib import Path

import pytest
import typer.main
import typer.testing
from typer.testing import CliRunner

import gwe_fast.cli as cli
from gwe_fast.games import driver
from gwe_fast.policies.registry import make_policy
from gwe_fast.scenario.loader import DATA_DIR, _load

SEED = 2929
VARIANTS = 250
TURNS = {"brusilov": 2, "kaisers_battle": 3}    # Game-Turns played by an accepted variant

GAMES = {"brusilov": ("historical.toml", "attack_on_schedule.toml"),
         "kaisers_battle": ("historical.toml",)}
PARTS = ("map.toml", "counters.toml", "tables.toml")

#: values put in place of a number, string, list or table
VALUES = ["2147483648", "-2147483649", "9223372036854775807", "-9223372036854775808", "32768",
          "-32769", "128", "255", "256", "100", "99", "19", "18", "11", "-1", "0", "1", "7",
          "0.5", "1e9", "-0.0", "nan", "inf", "-inf", '"x"', '""', '"0809"', '"9999"', '"0000"',
          '"A"', '"Z"', "true", "false", "[]", "[1, 2]", '["a"]', "[[1]]", "{}", "{ a = 1 }",
          '"1916-06-04"', '"../../../../etc/passwd"', '"/dev/zero"', '"nothere.toml"']
_KEY_LINE = re.compile(r'^(\s*)([A-Za-z0-9_-]+|"[^"\n]*")(\s*=\s*)(.+)$')
_ROW_LINE = re.compile(r'^(\s*)(\[.*\])(,?)(\s*(#.*)?)$')
_HEX = re.compile(r'"(\d{4})')
_HEADER = re.compile(r'^\s*\[\[?[^\]]+\]\]?\s*(#.*)?$')


def _value_alone(text: str):
    """The TOML value ``text`` (a value and maybe a comment), or raise ValueError."""
    try:
        return tomllib.loads(f"x = {text}")["x"]
    except tomllib.TOMLDecodeError:
        raise ValueError(text) from None


def _toml(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v) if not isinstance(v, float) or v == v and abs(v) != float("inf") \
            else ("nan" if v != v else ("inf" if v > 0 else "-inf"))
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {_toml(x)}" for k, x in v.items()) + " }"
    return json.dumps(str(v))


#: whole numbers at and near the ends of the ranges the loader allows
EDGES = [0, 1, 2, 98, 99, -1, -99]


def _edge(rng: random.Random, value):
    """``value`` (a number, or a list or table holding some) with one number moved to an
    edge of the allowed ranges: a variant that may well be valid, and must then play."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return rng.choice(EDGES)
    if isinstance(value, float):
        return rng.choice([0.0, 0.1, 99.0])
    if isinstance(value, list) and value:
        i = rng.randrange(len(value))
        return value[:i] + [_edge(rng, value[i])] + value[i + 1:]
    if isinstance(value, dict) and value:
        k = rng.choice(list(value))
        return {**value, k: _edge(rng, value[k])}
    return value


def _mutate_value(rng: random.Random, value):
    """A new TOML text for ``value``: an edge of its range, something else entirely, or one
    element changed."""
    if rng.random() < 0.35:
        return _toml(_edge(rng, value))
    if isinstance(value, list) and value and rng.random() < 0.6:
        out = list(value)
        i = rng.randrange(len(out))
        out[i] = _value_alone(rng.choice(VALUES))
        return _toml(out)
    if isinstance(value, dict) and value and rng.random() < 0.6:
        out = dict(value)
        k = rng.choice(list(out))
        out[k] = _value_alone(rng.choice(VALUES))
        return _toml(out)
    if isinstance(value, int) and not isinstance(value, bool) and rng.random() < 0.5:
        return str(rng.choice([value + 1, value - 1, -value, value * 10, value + 100]))
    return rng.choice(VALUES)


def _mutate(rng: random.Random, lines: list[str], file: str) -> str:
    """Change ``lines`` in place in one of a dozen ways; return what was done."""
    kind = rng.choice(["value", "value", "value", "value", "row", "delete", "rename", "unknown",
                       "hex", "hex", "duplicate", "header", "reference"])
    keyed = [i for i, ln in enumerate(lines) if _KEY_LINE.match(ln)]
    if kind == "row":
        rows = [i for i, ln in enumerate(lines) if _ROW_LINE.match(ln)]
        if rows:
            i = rng.choice(rows)
            m = _ROW_LINE.match(lines[i])
            try:
                row = _value_alone(m.group(2))
            except ValueError:
                row = None
            if isinstance(row, list) and row:
                lines[i] = f"{m.group(1)}{_mutate_value(rng, row)}{m.group(3)}{m.group(4)}"
                return f"row {i + 1}"
        kind = "value"
    if kind in ("value", "delete", "rename") and keyed:
        for _ in range(20):
            i = rng.choice(keyed)
            ind, key, eq, rest = _KEY_LINE.match(lines[i]).groups()
            try:
                value = _value_alone(rest)
            except ValueError:
                continue                    # the start of a value written over several lines
            if kind == "delete":
                del lines[i]
                return f"delete line {i + 1} ({key})"
            if kind == "rename":
                other = _KEY_LINE.match(lines[rng.choice(keyed)]).group(2)
                new = rng.choice([key + "x", other, "Key", '"a.b"'])
                lines[i] = f"{ind}{new}{eq}{rest}"
                return f"rename {key} -> {new} at line {i + 1}"
            lines[i] = f"{ind}{key}{eq}{_mutate_value(rng, value)}"
            return f"value of {key} at line {i + 1}"
    if kind == "unknown":
        heads = [i for i, ln in enumerate(lines) if _HEADER.match(ln)] or [-1]
        i = rng.choice(heads)
        lines.insert(i + 1, rng.choice(["bogus = 1", 'colour = "red"', "turns = 3"]))
        return f"unknown key after line {i + 1}"
    if kind == "hex":
        hexed = [i for i, ln in enumerate(lines) if _HEX.search(ln)]
        if hexed:
            i = rng.choice(hexed)
            hits = list(_HEX.finditer(lines[i]))
            m = rng.choice(hits)
            new = rng.choice([f"{rng.randint(0, 50):02d}{rng.randint(0, 30):02d}", "9999",
                              "0000", "3121", "0101", "4628"])
            lines[i] = lines[i][:m.start(1)] + new + lines[i][m.end(1):]
            return f"hex id {m.group(1)} -> {new} at line {i + 1}"
    if kind == "duplicate":
        heads = [i for i, ln in enumerate(lines) if ln.strip() in ("[[unit]]", "[[place]]")]
        if heads:
            i = rng.choice(heads)
            j = i + 1
            while j < len(lines) and lines[j].strip() and not _HEADER.match(lines[j]):
                j += 1
            block = lines[i:j]
            at = rng.choice(heads + [len(lines)])
            lines[at:at] = block + [""]
            return f"block at line {i + 1} copied to line {at + 1}"
    if kind == "header":
        heads = [i for i, ln in enumerate(lines) if _HEADER.match(ln)]
        if heads:
            i = rng.choice(heads)
            if rng.random() < 0.5:
                del lines[i]
                return f"header at line {i + 1} deleted"
            lines[i] = lines[i].replace("]", "x]", 1)
            return f"header at line {i + 1} renamed"
    if kind == "reference":
        subs = [(r'^entry = "[A-Z]"', 'entry = "Q"'), (r'^option = "[a-z_]+"', 'option = "nope"'),
                (r'^(forest|swamp|woods|hilltop|mountain|rough) =', "jungle ="),
                (r'^(town|city|redoubt|wire|fieldwork) =', "towns ="),
                (r'^(minor_river|major_river|canal|rail_single) =', "creek ="),
                (r'^type = "[a-z_]+"', 'type = "dragon"'),
                (r'^side = "[a-z]+"', 'side = "neutral"'),
                (r'^excludes = \[.*\]', 'excludes = ["nope"]'),
                (r'^first_player = .*', 'first_player = "russian"'),
                (r'^(map|counters|tables|extends) = .*', r'\1 = "nothere.toml"'),
                (r'^game = .*', 'game = "kb"'), (r'^level = "[a-z_]+"', 'level = "x"')]
        rng.shuffle(subs)
        for pat, rep in subs:
            hits = [i for i, ln in enumerate(lines) if re.match(pat, ln)]
            if hits:
                i = rng.choice(hits)
                lines[i] = re.sub(pat, rep, lines[i])
                return f"reference at line {i + 1}: {lines[i]}"
    if keyed:
        i = rng.choice(keyed)
        ind, key, eq, _ = _KEY_LINE.match(lines[i]).groups()
        lines[i] = f"{ind}{key}{eq}{rng.choice(VALUES)}"
        return f"value of {key} at line {i + 1}"
    return "nothing"


def _variants(tmp: Path):
    """``(folder, scenario file, what was done)`` of each variant, written under ``tmp``."""
    rng = random.Random(SEED)
    texts = {g: {f.name: f.read_text() for f in (DATA_DIR / g).glob("*.toml")} for g in GAMES}
    for n in range(VARIANTS):
        game = rng.choice(list(GAMES))
        scenario = rng.choice(GAMES[game])
        files = dict(texts[game])
        # short games: the scenario ends a few turns after it begins
        base = tomllib.loads(files[scenario])["scenario"]
        first = base.get("first_turn") or tomllib.loads(files["historical.toml"])["scenario"][
            "first_turn"]
        files[scenario] = re.sub(r"(?m)^last_turn = \d+", f"last_turn = {first + TURNS[game] - 1}",
                                 files[scenario])
        done = []
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            target = rng.choice([scenario, scenario, *PARTS])
            lines = files[target].split("\n")
            done.append(f"{target}: {_mutate(rng, lines, target)}")
            files[target] = "\n".join(lines)
        folder = tmp / f"v{n:03d}-{game}"
        folder.mkdir()
        for name, text in files.items():
            (folder / name).write_text(text)
        yield folder, folder / scenario, "; ".join(done)


@pytest.fixture
def parse_once(monkeypatch):
    """Parse each distinct file text once (most files of a variant are the bundled ones):
    the loader still reads every file and checks every value, in a third of the time."""
    memo: dict[str, bytes] = {}
    loads = tomllib.loads

    def cached(text, **kw):
        if text not in memo:
            memo[text] = pickle.dumps(loads(text, **kw))   # raises on bad TOML, uncached
        return pickle.loads(memo[text])

    monkeypatch.setattr(tomllib, "loads", cached)


def test_fuzzed_scenarios_are_refused_with_located_faults_or_play(tmp_path, parse_once,
                                                                   monkeypatch):
    seen: dict[str, tuple] = {}

    def recording_validate(path, options=None, *, allow_outside_paths=False):
        # what validate does (its faults), keeping the scenario it loaded to play it
        seen[str(path)] = _load(path, options, None, allow_outside_paths)
        return seen[str(path)][1]

    monkeypatch.setattr(cli, "validate", recording_validate)
    # typer builds the click command of the whole app at every invoke (a quarter of a second
    # here); build it once
    command = typer.main.get_command(cli.app)
    monkeypatch.setattr(typer.testing, "_get_command", lambda app: command)
    runner = CliRunner()
    refused = played = 0
    for folder, scenario, done in _variants(tmp_path):
        what = f"{scenario.relative_to(tmp_path)} after {done}"
        result = runner.invoke(cli.app, ["validate", str(scenario)])
        assert result.exception is None or isinstance(result.exception, SystemExit), \
            f"{what}: validate raised {result.exception!r}"
        sc, faults = seen[str(scenario)]
        if faults:
            assert result.exit_code == 2, what
            assert "Traceback" not in result.output
            names = {p.name for p in folder.iterdir()} | {scenario.name}
            for f in faults:
                assert f.file and Path(f.file).name in names, f"{what}: {f}"
                assert f.key or f.line, f"{what}: fault not located: {f}"
            refused += 1
            shutil.rmtree(folder)
            continue
        assert result.exit_code == 0, what
        d = driver(sc.game)
        try:
            g = d.new_game(sc, SEED, 0, policies={0: make_policy("random"),
                                                  1: make_policy("random")})
            d.play(g)
        except Exception as exc:  # noqa: BLE001 - the loader let it through
            raise AssertionError(f"{what}: accepted, then play raised {exc!r}") from exc
        played += 1
        shutil.rmtree(folder)
    # neither outcome may vanish: the test would stop testing half of what it claims
    assert refused >= VARIANTS // 4 and played >= VARIANTS // 10, (refused, played)
