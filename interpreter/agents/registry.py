"""Agents by spec: the names on the command line and in `make_agent`.

A spec is a name with optional parameters after a colon: `random`, `greedy`, `mcts:200` (the
first parameter by position), `turn:width=8,samples=4`,
`mcts:iterations=500,c=1.4,time=0.5,playout=greedy,seed=3`; a saved policy, `policy:PATH` or
`policy:PATH,pick=sample` (agents/policy.py); or a class of the user's by module path,
`mypkg.mybot:Bot` or `mybot:Bot` (its parameters after a second colon, `mypkg.mybot:Bot:depth=2`),
made with `seed=` if it takes one; the current folder is searched for the module too.
`register_agent` adds a name.
A bad spec raises AgentSpecError (a usage error: the command line is wrong).
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .base import Agent


class AgentSpecError(ValueError):
    """An agent spec that names no agent or gives it a wrong parameter."""


class UnknownAgentError(AgentSpecError):
    """An agent name that the registry does not know."""


@dataclass(frozen=True)
class Param:
    """One parameter an agent takes in its spec: its type (int, float or one of `choices`),
    default and least value."""

    name: str
    kind: type = int
    default: Any = None
    least: float | None = None
    choices: tuple[str, ...] = ()
    help: str = ""

    def read(self, text: str, spec: str) -> Any:
        where = f"agent {spec!r}: {self.name}"
        if self.choices:
            if text not in self.choices:
                raise AgentSpecError(f"{where} is one of {', '.join(self.choices)}, not {text!r}")
            return text
        try:
            value = self.kind(text)
        except ValueError:
            what = "a whole number" if self.kind is int else "a number"
            raise AgentSpecError(f"{where} must be {what}, not {text!r}") from None
        if self.least is not None and not value >= self.least:  # (`not >=`: NaN too)
            raise AgentSpecError(f"{where} must be at least {self.least:g}, not {text}")
        return value


@dataclass(frozen=True)
class Entry:
    """A registered agent: how to make it from a seed and its parameters, what they are."""

    make: Callable[..., Agent]
    params: tuple[Param, ...] = ()
    summary: str = ""


def _builtins() -> dict[str, Entry]:
    from .greedy import GreedyAgent
    from .human import HumanAgent
    from .mcts import MctsAgent
    from .policy import PolicyAgent
    from .simple import FirstAgent, RandomAgent
    from .turn import TurnAgent

    return {
        "random": Entry(lambda seed=None, **kw: RandomAgent(seed), (), "uniformly random, seeded"),
        "first": Entry(lambda seed=None, **kw: FirstAgent(), (), "always the first option"),
        "greedy": Entry(GreedyAgent, GreedyAgent.PARAMS, GreedyAgent.SUMMARY),
        "turn": Entry(TurnAgent, TurnAgent.PARAMS, TurnAgent.SUMMARY),
        "mcts": Entry(MctsAgent, MctsAgent.PARAMS, MctsAgent.SUMMARY),
        "policy": Entry(PolicyAgent, PolicyAgent.PARAMS, PolicyAgent.SUMMARY),
        "human": Entry(lambda seed=None, **kw: HumanAgent(**kw), (), "a person at the terminal"),
    }


_REGISTERED: dict[str, Entry] = {}


def register_agent(name: str, make: Callable[..., Agent], params: tuple[Param, ...] = (),
                   summary: str = "") -> None:
    """Make `name` an agent spec: `make(seed=..., **params)` builds it."""
    if not re.fullmatch(r"[a-z][a-z0-9_-]*", name):
        raise AgentSpecError(f"an agent name is lower-case letters, digits, '-' and '_', not {name!r}")
    _REGISTERED[name] = Entry(make, tuple(params), summary)


def registry() -> dict[str, Entry]:
    return {**_builtins(), **_REGISTERED}


def agent_names() -> list[str]:
    return list(registry())


def split_agent_specs(text: str) -> list[str]:
    """'mcts:iterations=500,c=1.4,random' -> ['mcts:iterations=500,c=1.4', 'random']: a piece
    `key=value` without a colon goes on with the spec before it."""
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if specs and ":" in specs[-1] and "=" in piece and ":" not in piece.split("=", 1)[0]:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def make_agent(spec: str, seed: int | str | None = None, **kwargs) -> Agent:
    """An agent by spec (see the module): 'random' (seeded, its own generator), 'first',
    'greedy', 'turn[:params]', 'mcts[:params]', 'human' (kwargs go to it: input=, output=) or 'module:Class'."""
    spec = spec.strip()
    name, _, args = spec.partition(":")
    name = name.strip()
    entries = registry()
    if "." in name or (name.lower() not in entries and re.fullmatch(r"[A-Za-z_]\w*", args.partition(":")[0].strip())):
        agent = _by_path(spec, name, args, seed)
    else:
        entry = entries.get(name.lower())
        if entry is None:
            close = difflib.get_close_matches(name, list(entries), n=1, cutoff=0.5)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise UnknownAgentError(f"unknown agent {name!r}{hint}; agents: {', '.join(entries)}, "
                                    "or a class by dotted path (module:Class)")
        params = parse_params(spec, args, entry.params)
        if "seed" in params:
            seed = params.pop("seed")
        try:
            agent = entry.make(seed=seed, **params, **kwargs)
        except AgentSpecError as err:  # (a parameter the agent itself refuses: name the spec)
            raise type(err)(f"agent {spec!r}: {err}") from None
    try:
        agent.name = spec
    except AttributeError:  # (slots, or a read-only property: the class name is shown instead)
        pass
    return agent


def parse_params(spec: str, args: str, params: tuple[Param, ...]) -> dict[str, Any]:
    """The parameters of a spec, by the agent's declared `params` ('200' is the first; 'k=v');
    every agent with parameters also takes `seed=`."""
    values: dict[str, Any] = {}
    if not args.strip():
        return values
    known = {p.name: p for p in params}
    for i, item in enumerate(a.strip() for a in args.split(",")):
        key, eq, text = item.partition("=")
        if not eq:
            if i > 0 or not params:
                what = "takes no parameters" if not params else "takes only its first parameter by position"
                raise AgentSpecError(f"agent {spec!r}: {what}; give NAME=VALUE ({', '.join(known) or 'none'})")
            key, text = params[0].name, item
        key, text = key.strip(), text.strip()
        if key == "seed":
            values["seed"] = text
            continue
        param = known.get(key)
        if param is None:
            names = [*known, "seed"]
            hint = difflib.get_close_matches(key, names, n=1, cutoff=0.5)
            raise AgentSpecError(f"agent {spec!r} has no parameter {key!r}"
                                 + (f" (did you mean {hint[0]!r}?)" if hint else "")
                                 + f"; its parameters: {', '.join(names)}")
        if key in values:
            raise AgentSpecError(f"agent {spec!r}: {key} is given twice")
        values[key] = param.read(text, spec)
    return values


def _by_path(spec: str, module_name: str, rest: str, seed) -> Agent:
    class_name, _, args = rest.partition(":")
    class_name = class_name.strip()
    if not class_name:
        raise AgentSpecError(f"agent {spec!r}: a dotted path names module:Class, e.g. mypkg.mybot:Bot")
    if os.getcwd() not in sys.path and "" not in sys.path:  # (as `python -m` would; uvicorn does the same)
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except Exception as err:  # (whatever the user's module raises on import)
        raise AgentSpecError(f"agent {spec!r}: cannot import {module_name!r}: {type(err).__name__}: {err}") from None
    cls = getattr(module, class_name, None)
    if cls is None or not callable(cls):
        raise AgentSpecError(f"agent {spec!r}: module {module_name!r} has no class {class_name!r}")
    params: dict[str, Any] = {}
    for item in (a.strip() for a in args.split(",") if a.strip()):
        key, eq, text = item.partition("=")
        if not eq:
            raise AgentSpecError(f"agent {spec!r}: parameters of a class by path are NAME=VALUE, not {item!r}")
        params[key.strip()] = _literal(text.strip())
    try:
        takes_seed = "seed" in inspect.signature(cls).parameters
    except (TypeError, ValueError):
        takes_seed = False
    if takes_seed and "seed" not in params:
        params["seed"] = seed
    try:
        agent = cls(**params)
    except Exception as err:
        raise AgentSpecError(f"agent {spec!r}: {class_name}({', '.join(params)}) failed: "
                             f"{type(err).__name__}: {err}") from None
    if not callable(getattr(agent, "act", None)):
        raise AgentSpecError(f"agent {spec!r}: {class_name} has no act(view) method")
    return agent


def _literal(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
