"""A loaded Guns of August scenario: what the runner, the command line and the engine need.

``GoaScenario`` has the attributes every scenario has (``game``, ``key``, ``name``,
``version``, ``path``, ``options``, ``option_specs``, ``data_hash``, ``options_hash``,
``first_turn``/``last_turn`` as month numbers, ``describe()``) and the game's compiled
``goa`` tables (``tables.GoaTables``). ``load_goa`` builds one from a scenario file whose
``[scenario] game = "goa"``; the data files it reads are its folder's ``countries.toml``,
``cities.toml``, ``naval.toml``, ``colonies.toml``, ``land.toml`` and ``morale.toml``
(``data.read_goa`` validates them).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from gwe_fast.games.goa.codes import RESULT_NAMES, Month, Result
from gwe_fast.games.goa.model import GoaTables
from gwe_fast.scenario.errors import GIVEN, Fault, ScenarioError
from gwe_fast.scenario.model import OptionSpec

#: the option whose value is one of a list of names, not true or false
CHOICE_OPTIONS = {"land": ("historical", "fronts")}


@dataclass(frozen=True, eq=False)
class GoaScenario:
    game: str
    key: str
    name: str
    version: int
    path: Path | None
    option_specs: MappingProxyType
    options: MappingProxyType
    data_hash: str
    options_hash: str
    first_turn: int
    last_turn: int
    goa: GoaTables
    raw: MappingProxyType = field(repr=False)
    description: str = ""

    @property
    def tables(self) -> dict:
        """The levels of victory, as the runner lists them (``levels_of``)."""
        return {"victory_levels": {"band": [{"level": RESULT_NAMES[r]} for r in Result
                                            if r != Result.PLAYING]}}

    @property
    def n_turns(self) -> int:
        return self.last_turn - self.first_turn + 1

    def describe(self) -> str:
        t = self.goa
        return (f"{self.key}: {self.name} (game goa, months {Month.name(self.first_turn)} to "
                f"{Month.name(self.last_turn)}, {t.n_countries} countries, {t.n_cities} cities, "
                f"{t.n_squadrons} squadrons)")


def _hash(obj: Any) -> str:
    blob = json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def coerce(spec: OptionSpec, raw: Any) -> Any:
    """A user's option value (often a string from the command line) in the option's type;
    ValueError with one sentence when it does not fit."""
    if spec.name in CHOICE_OPTIONS:
        choices = CHOICE_OPTIONS[spec.name]
        if str(raw) not in choices:
            raise ValueError(f"option {spec.name!r} takes one of {', '.join(choices)}, "
                             f"not {raw!r}")
        return str(raw)
    if isinstance(raw, bool):
        return raw
    s = str(raw).strip().lower()
    if s in ("true", "1", "yes", "on"):
        return True
    if s in ("false", "0", "no", "off"):
        return False
    raise ValueError(f"option {spec.name!r} takes true or false, not {raw!r}")


def option_specs(raw_options: dict, shown: str) -> tuple[dict[str, OptionSpec], list[Fault]]:
    faults = []
    specs = {}
    for name, o in raw_options.items():
        if not isinstance(o, dict) or "default" not in o:
            faults.append(Fault(shown, f"options.{name}", "must be a table with a default"))
            continue
        default = o["default"]
        if name in CHOICE_OPTIONS and default not in CHOICE_OPTIONS[name]:
            faults.append(Fault(shown, f"options.{name}.default",
                                f"must be one of {', '.join(CHOICE_OPTIONS[name])}"))
            continue
        if name not in CHOICE_OPTIONS and not isinstance(default, bool):
            faults.append(Fault(shown, f"options.{name}.default", "must be true or false"))
            continue
        specs[name] = OptionSpec(name, default, str(o.get("help", "")), str(o.get("case", "")),
                                 0, tuple(o.get("excludes", ())), ())
    return specs, faults


def check_options(specs: dict[str, OptionSpec], values: dict[str, Any], shown: str,
                  requires: dict[str, tuple]) -> list[Fault]:
    """The colonial variant needs the naval one (the seed's introduction); ``excludes``."""
    faults = []
    for name, needed in requires.items():
        if values.get(name) is True:
            for n in needed:
                if values.get(n) is not True:
                    why = (": the colonial variant must be used together with the naval variant"
                           if name == "colonies" else "")
                    faults.append(Fault(GIVEN, name,
                                        f"option {name} needs option {n}{why}"))
    for name, spec in specs.items():
        if values.get(name) is True:
            for x in spec.excludes:
                if values.get(x) is True:
                    faults.append(Fault(shown, f"options.{name}",
                                        f"options {name} and {x} exclude each other"))
    return faults


def load_goa(key: str, path: Path, data: dict, options: dict[str, Any] | None) -> GoaScenario:
    """Build a scenario from its scenario file (``data``: its content, ``extends`` merged):
    the data files beside it are validated (``data.read_goa``), compiled once with the
    options (``tables.compile_tables``)."""
    from gwe_fast.games.goa.data import read_goa
    from gwe_fast.games.goa.tables import compile_tables, raw_from_data

    gd = read_goa(path)                         # raises ScenarioError with every fault
    shown = str(path)
    specs = {name: OptionSpec(name, o.default, o.help, o.case, 0, tuple(o.excludes), ())
             for name, o in gd.scenario.options.items()}
    values = {name: spec.default for name, spec in specs.items()}
    faults: list[Fault] = []
    for name, value in (options or {}).items():
        if name not in specs:
            faults.append(Fault(GIVEN, name, f"unknown option {name!r} (known: "
                                                    f"{', '.join(sorted(specs))})"))
            continue
        try:
            values[name] = coerce(specs[name], value)
        except ValueError as exc:
            faults.append(Fault(GIVEN, name, str(exc)))
    requires = {name: tuple(o.requires) for name, o in gd.scenario.options.items()}
    faults += check_options(specs, values, shown, requires)
    if faults:
        raise ScenarioError(faults)
    raw = raw_from_data(gd)
    t = compile_tables(raw, values)
    sc = gd.scenario
    return GoaScenario(
        game="goa", key=key, name=sc.name, version=int(sc.version), path=path,
        option_specs=MappingProxyType(specs), options=MappingProxyType(values),
        data_hash=_hash(raw), options_hash=_hash(values), first_turn=t.first_month,
        last_turn=t.last_month, goa=t, raw=MappingProxyType(raw), description=sc.description)


def scenario_from_raw(raw: dict, options: dict[str, Any] | None = None,
                      key: str = "<in memory>") -> GoaScenario:
    """A scenario from data already in memory (tests build small worlds this way); the
    options are every variant's, defaults as in the bundled scenarios unless given."""
    from gwe_fast.games.goa.tables import DEFAULT_OPTIONS, compile_tables

    specs = {name: OptionSpec(name, default, "", "", 0, (), ())
             for name, default in DEFAULT_OPTIONS.items()}
    values = dict(DEFAULT_OPTIONS)
    for name, value in (options or {}).items():
        values[name] = coerce(specs[name], value)
    faults = check_options(specs, values, key, {"colonies": ("naval",)})
    if faults:
        raise ScenarioError(faults)
    t = compile_tables(raw, values)
    return GoaScenario(
        game="goa", key=key, name=key, version=1, path=None,
        option_specs=MappingProxyType(specs), options=MappingProxyType(values),
        data_hash=_hash(raw), options_hash=_hash(values), first_turn=t.first_month,
        last_turn=t.last_month, goa=t, raw=MappingProxyType(raw))
