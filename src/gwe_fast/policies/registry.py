"""Policies by name: the built-in ladder and a user's own ``module:Class``, with parameters.

A policy spec is ``NAME`` or ``NAME:key=value,key=value``; ``NAME`` is a registered name
(``POLICIES``) or ``package.module:Class`` naming any ``Policy`` subclass importable from the
current directory or the Python path. Values are parsed as int, float, bool (``true``/
``false``) or left as strings.

Examples
--------
>>> p = make_policy("random")
>>> p.name, p.params
('random', {})
>>> make_policy("gwe_fast.policies.ladder:Greedy:aggression=0.5").params
{'aggression': 0.5}
>>> parse_spec("random:budget=8")
('random', {'budget': 8})
>>> make_policy("nosuch")
Traceback (most recent call last):
...
gwe_fast.policies.registry.PolicyError: unknown policy 'nosuch' (known: ...random...; or give package.module:Class)
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable
from typing import Any

from gwe_fast.policies.base import Policy

#: registered names -> "module:Class" (each level of the ladder adds itself here)
POLICIES: dict[str, str] = {
    "random": "gwe_fast.policies.base:RandomPolicy",
    # each level plays both games with the game's own implementation (policies/ladder.py)
    "passive": "gwe_fast.policies.ladder:Passive",
    "greedy": "gwe_fast.policies.ladder:Greedy",
    "doctrine": "gwe_fast.policies.ladder:Doctrine",
    "lookahead": "gwe_fast.policies.ladder:Lookahead",
    "historical": "gwe_fast.policies.ladder:Historical",
    # outside the ladder: the Allied delay defence of The Kaiser's Battle (issue 30)
    "delay": "gwe_fast.policies.ladder:Delay",
}


class PolicyError(ValueError):
    """A policy spec that names no policy or carries a malformed parameter."""


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``(name, params)`` of a policy spec; the name keeps a ``module:Class`` form."""
    spec = spec.strip()
    if not spec:
        raise PolicyError("empty policy spec")
    parts = spec.split(":")
    name, rest = parts[0], parts[1:]
    if rest and "=" not in rest[0]:            # package.module:Class
        name, rest = f"{name}:{rest[0]}", rest[1:]
    if len(rest) > 1:
        raise PolicyError(f"policy spec {spec!r} has too many ':' (NAME[:key=value,...])")
    params: dict[str, Any] = {}
    if rest and rest[0]:
        for item in rest[0].split(","):
            key, eq, val = item.partition("=")
            if not eq or not key.strip():
                raise PolicyError(f"policy parameter {item!r} in {spec!r} is not key=value")
            params[key.strip()] = _value(val.strip())
    return name, params


_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_TARGET = re.compile(rf"{_NAME}(?:\.{_NAME})*:{_NAME}")


def policy_class(name: str) -> type[Policy]:
    target = POLICIES.get(name, name)
    if not _TARGET.fullmatch(target):
        raise PolicyError(f"unknown policy {name!r} (known: {', '.join(sorted(POLICIES))}; "
                          f"or give package.module:Class)")
    module_name, _, cls_name = target.partition(":")
    if "" not in sys.path and "." not in sys.path:
        sys.path.insert(0, "")                    # a user's module in the current directory
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # noqa: BLE001 - a user's module may raise anything on import
        why = " ".join(str(exc).split()) or type(exc).__name__
        if not isinstance(exc, ImportError):
            why = f"{type(exc).__name__}: {why}"
        raise PolicyError(f"cannot import policy module {module_name!r}: {why}") from None
    cls = getattr(module, cls_name, None)
    if not (isinstance(cls, type) and issubclass(cls, Policy)):
        raise PolicyError(f"{target!r} is not a Policy subclass")
    return cls


def make_policy(spec: str, game: str | None = None) -> Policy:
    """A new policy object from a spec.

    ``game`` (``"gwe"``, ``"kb"``), when known, is the game the policy will play: a level of
    the ladder then checks its parameters against that game's implementation alone, and a
    refusal names only the parameters that game knows.
    """
    return policy_maker(spec, game)()


def policy_maker(spec: str, game: str | None = None) -> Callable[[], Policy]:
    """What makes new policy objects of a spec: the spec read, its module imported and its
    parameters checked once (``PolicyError`` here when they cannot be), each call a new object
    (``PolicyError`` when the class refuses its parameters). The runner makes each game's
    policies afresh with it, without reading the spec again for every game."""
    name, params = parse_spec(spec)
    cls = policy_class(name)
    check = getattr(cls, "check_for", None)
    if game is not None and check is not None:
        try:
            check(game, params)
        except TypeError as exc:
            raise PolicyError(f"policy {name!r} {exc}") from None

    def make() -> Policy:
        try:
            return cls(**params)
        except TypeError as exc:
            raise PolicyError(f"policy {name!r} does not take these parameters: "
                              f"{exc}") from None
        except Exception as exc:  # noqa: BLE001 - a user's policy may refuse its values so
            raise PolicyError(f"policy {name!r} cannot be made with these parameters: "
                              f"{type(exc).__name__}: {exc}") from None

    return make
