"""Agents plugged in from outside the registry: a researcher's class, a trained policy.

Besides the registry names (`random`, `greedy`, `mcts`, the levels), an agent spec may be:

- `module:Name` or `path/to/file.py:Name`: a class (or any factory) in an importable
  module or a Python file, built with `Name(seed=seed)`; what it builds has `act(state)`,
  returning one of `state.legal_actions()` or a legal action id (an int), and a `name`
  (optional: the spec names it otherwise). `Name` may be dotted (`module:Outer.Inner`).
- `policy.zip`: a MaskablePPO policy saved by sb3-contrib (`model.save(...)`), loaded with
  `sb3_contrib.MaskablePPO.load`; it acts for the seat to move from
  `kamon.rl.encoding(game).observe(state, seat)` and `.mask(state)`.
- `model.pt` / `model.pth`: a TorchScript module (`torch.jit.save`, `scripted.save`) or a
  PyTorch module saved whole (`torch.save(module, path)`) that maps a float32 batch of
  observations (1, SIZE) to logits (1, num_actions) (a tuple's first item is taken); the
  legal action with the highest logit is played.

A policy plays deterministically (the likeliest legal action); `policy.zip:sample` (or
`model.pt:sample`) samples the masked distribution instead, with the agent's seed.

Every plug-in agent is wrapped in a `PluginAgent`: it hands the agent a copy of the state
(the game itself is never changed by it) and checks its answer, raising `IllegalAgentMove`
(a KamonError naming the agent, the action, the decision and the legal actions) for an
action that is not legal now. Every other mistake (a module that does not import, a
missing name, a constructor without `seed=`, an object without `act`, a missing or
unreadable file, a policy whose sizes do not fit the game) is a KamonError saying what
was wrong and how to fix it. torch and sb3-contrib are imported only when a policy is
loaded; loaded policies and files are cached per process (a game builds its agents anew).
Loading a policy (or building a module agent once torch is imported) pins torch to one
thread in this process (`KAMON_TORCH_THREADS`, kamon.core.threads): a policy acts on one
observation at a time, where torch's thread pool only costs, several times over in a pool.
Module and file agents run arbitrary code, and `torch.load` unpickles: use trusted files.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import re
import sys
import threading
import warnings
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from kamon.core.errors import KamonError
from kamon.core.protocol import Action, State
from kamon.core.rng import Rng
from kamon.core.threads import pin_torch

SB3_SUFFIXES = (".zip",)
TORCH_SUFFIXES = (".pt", ".pth")
MODES = ("deterministic", "sample")
FORMS = ("module:Name, path/to/file.py:Name, a MaskablePPO policy.zip or a torch module "
         ".pt/.pth (docs/agents.md)")
LEGAL_SHOWN = 12  # legal actions listed in an illegal-move error (and how many more)


class IllegalAgentMove(KamonError):
    """A plug-in agent chose an action that is not legal now (the game is unchanged)."""


@dataclass(frozen=True)
class Spec:
    """A plug-in agent spec, parsed: what to load (`kind`: module, file, sb3, torch)."""

    text: str  # as given
    kind: str
    target: str  # module name or file path
    attr: str | None = None  # module and file: the class or factory
    mode: str = "deterministic"  # policies: deterministic or sample


def looks_like_plugin(text: str) -> bool:
    """Is `text` in a plug-in form (module:Name, a .py/.zip/.pt/.pth path)? Whether it
    loads is another matter."""
    head, sep, _mode = text.strip().rpartition(":")
    if sep and _is_policy_path(head):
        return True  # (a policy, in a mode or not: building it says which modes there are)
    try:
        parse_spec(text)
    except KamonError:
        return False
    return True


def _is_policy_path(path: str) -> bool:
    """Does the path end like a policy file?"""
    return path.lower().endswith(SB3_SUFFIXES + TORCH_SUFFIXES)


def parse_spec(text: str) -> Spec:
    """The plug-in spec in `text`; a KamonError (`unknown agent`) when it is in no form."""
    raw = text.strip()
    head, sep, tail = raw.rpartition(":")
    if sep and _is_policy_path(head) and tail.lower() in MODES:
        path, mode = head, tail.lower()
    elif sep and _is_policy_path(head):
        raise KamonError(f"agent {raw!r}: {tail!r} is not a mode of a policy; give "
                         f"{head} or {head}:deterministic (its likeliest legal action) or "
                         f"{head}:sample (a draw from its masked distribution)")
    else:
        path, mode = raw, "deterministic"
    if _is_policy_path(path):
        kind = "sb3" if path.lower().endswith(SB3_SUFFIXES) else "torch"
        return Spec(raw, kind, path, None, mode)
    if sep and head and tail:
        if not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", tail):
            raise KamonError(f"agent {raw!r}: {tail!r} is not a Python name (module:Name or "
                             "path/to/file.py:Name)")
        is_file = head.endswith(".py") or "/" in head or os.sep in head
        if not is_file and not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", head):
            raise KamonError(f"agent {raw!r}: {head!r} is neither a module name nor a .py "
                             "file (module:Name or path/to/file.py:Name)")
        return Spec(raw, "file" if is_file else "module", head, tail)
    from kamon.agents import AGENTS

    raise KamonError(f"unknown agent {text!r}; known agents: {', '.join(AGENTS)}; or plug "
                     f"one in: {FORMS}")


# --- loading ---------------------------------------------------------------------------

_LOCK = threading.RLock()
_FILES: dict[tuple[str, int], ModuleType] = {}
_MODELS: dict[tuple[str, str, int, int], Any] = {}
_FITS: dict[tuple[int, str], None] = {}


def _file_of(spec: Spec, what: str) -> Path:
    """The spec's file, which must exist (KamonError naming where it was looked for)."""
    path = Path(spec.target).expanduser()
    if not path.is_file():
        where = "" if path.is_absolute() else f" (relative to {os.getcwd()})"
        extra = " is a directory, not a file" if path.is_dir() else " does not exist"
        raise KamonError(f"agent {spec.text!r}: the {what} {spec.target}{extra}{where}")
    return path.resolve()


def _import_file(spec: Spec) -> ModuleType:
    """A Python file as a module (loaded once per process and file version)."""
    path = _file_of(spec, "Python file")
    key = (str(path), path.stat().st_mtime_ns)
    with _LOCK:
        found = _FILES.get(key)
        if found is not None:
            return found
        stem = re.sub(r"\W", "_", path.stem)
        name = f"kamon_plugin_{stem}_{abs(hash(str(path))) % 10**8}"
        loader_spec = importlib.util.spec_from_file_location(name, path)
        if loader_spec is None or loader_spec.loader is None:
            raise KamonError(f"agent {spec.text!r}: {path} cannot be loaded as Python")
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[name] = module  # (dataclasses and pickling look the module up)
        try:
            loader_spec.loader.exec_module(module)
        except Exception as exc:
            sys.modules.pop(name, None)
            raise KamonError(f"agent {spec.text!r}: {spec.target} does not import: "
                             f"{_why(exc)}") from exc
        _FILES[key] = module
        return module


def _import_module(spec: Spec) -> ModuleType:
    """An importable module (the current directory is tried too, as `python -m` would)."""
    name = spec.target
    for attempt in range(2):
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as exc:
            missing = exc.name or ""
            ours = name == missing or name.startswith(missing + ".")
            if not ours:
                raise KamonError(f"agent {spec.text!r}: importing module {name!r} failed: "
                                 f"{_why(exc)} (a module it needs is not installed)") from exc
            cwd = os.getcwd()
            if attempt == 0 and cwd not in sys.path and "" not in sys.path:
                sys.path.append(cwd)  # (spawned workers inherit the path)
                importlib.invalidate_caches()
                continue
            raise KamonError(f"agent {spec.text!r}: cannot import module {name!r} ({_why(exc)}); "
                             "it must be importable where the games run (installed, on "
                             "PYTHONPATH, or in the current directory), or name a file: "
                             "path/to/file.py:Name") from None
        except Exception as exc:
            raise KamonError(f"agent {spec.text!r}: importing module {name!r} failed: "
                             f"{_why(exc)}") from exc
    raise AssertionError("unreachable")


def _why(exc: BaseException) -> str:
    """'Type: message' of an exception, on one line."""
    text = " ".join(str(exc).split())
    if len(text) > 300:
        text = text[:297] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _factory(spec: Spec) -> Any:
    """The class or factory a module or file spec names."""
    module = _import_file(spec) if spec.kind == "file" else _import_module(spec)
    obj: Any = module
    assert spec.attr is not None
    for part in spec.attr.split("."):
        if not hasattr(obj, part):
            names = sorted(n for n, v in vars(module).items()
                           if not n.startswith("_") and callable(v)
                           and getattr(v, "__module__", None) == module.__name__)
            has = f"; it has: {', '.join(names[:15])}" if names else ""
            raise KamonError(f"agent {spec.text!r}: {spec.target} has no attribute "
                             f"{spec.attr!r}{has}")
        obj = getattr(obj, part)
    return obj


def _build(spec: Spec, seed: int) -> Any:
    """`Name(seed=seed)`, checked: a KamonError for what cannot be built or has no act."""
    factory = _factory(spec)
    call = f"{spec.attr}(seed={seed})"
    if not callable(factory):
        raise KamonError(f"agent {spec.text!r}: {spec.attr} is {factory!r:.40} (of type "
                         f"{type(factory).__name__}), not a class or factory: give a class "
                         f"(or function) called as {spec.attr}(seed=...)")
    try:
        inspect.signature(factory).bind(seed=seed)
        takes_seed = True
    except TypeError:
        takes_seed = False
    except ValueError:  # (no signature to read: try it)
        takes_seed = True
    if not takes_seed:
        raise KamonError(f"agent {spec.text!r}: {spec.attr} cannot be built with seed=: "
                         f"{call} does not fit its signature {_signature(factory)}; give it a "
                         "`seed` keyword parameter (e.g. def __init__(self, seed: int = 0))")
    try:
        agent = factory(seed=seed)
    except KamonError:
        raise
    except Exception as exc:
        raise KamonError(f"agent {spec.text!r}: building {call} failed: {_why(exc)}"
                         ) from exc
    if not callable(getattr(agent, "act", None)):
        raise KamonError(f"agent {spec.text!r}: {call} made a {type(agent).__name__} without "
                         "an act(state) method; an agent needs act(state) (returning one of "
                         "state.legal_actions() or a legal action id) and a name")
    pin_torch()  # (a module agent may have imported torch: one thread, as for a policy)
    return agent


def _signature(obj: Any) -> str:
    """The signature of a callable, in words."""
    try:
        sig = inspect.signature(obj)
        return str(sig.replace(return_annotation=inspect.Signature.empty))
    except (TypeError, ValueError):
        return "(unknown)"


# --- policies --------------------------------------------------------------------------

class _Policy:
    """A loaded policy: its sizes (when known) and the logits or choice of an observation."""

    obs_size: int | None = None
    num_actions: int | None = None

    def choose(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None
               ) -> int:
        """The action id for an observation and legal-action mask (rng: sample)."""
        raise NotImplementedError


def _import_torch(spec: Spec) -> Any:
    """torch, pinned to KAMON_TORCH_THREADS threads (default 1), or a KamonError saying
    how to install it."""
    try:
        import torch
    except ImportError:
        raise KamonError(f"agent {spec.text!r}: a policy needs PyTorch, which is not "
                         "installed: pip install 'kamon[train]' (or pip install torch)"
                         ) from None
    pin_torch(torch)
    return torch


def _masked_choice(logits: np.ndarray, mask: np.ndarray,
                   rng: np.random.Generator | None) -> int:
    """The legal action with the highest logit, or one sampled from the masked softmax."""
    legal = np.flatnonzero(mask)
    if not len(legal):
        raise KamonError("a policy was asked to move with no legal action")
    vals = np.asarray(logits, dtype=np.float64)[legal]
    if rng is None:
        return int(legal[int(np.argmax(vals))])
    vals = np.where(np.isfinite(vals), vals, -1e30)
    probs = np.exp(vals - vals.max())
    probs /= probs.sum()
    return int(rng.choice(legal, p=probs))


class _Sb3Policy(_Policy):
    """A MaskablePPO model (sb3-contrib)."""

    def __init__(self, spec: Spec, path: Path) -> None:
        _import_torch(spec)
        try:
            from sb3_contrib import MaskablePPO
        except ImportError:
            raise KamonError(f"agent {spec.text!r}: a .zip policy needs sb3-contrib, which is "
                             "not installed: pip install 'kamon[train]'") from None
        try:
            self.model = MaskablePPO.load(str(path), device="cpu")
        except Exception as exc:
            raise KamonError(f"agent {spec.text!r}: {spec.target} does not load as a "
                             f"MaskablePPO policy (sb3_contrib.MaskablePPO.load): {_why(exc)}; "
                             "save one with model.save(path) after MaskablePPO(...).learn()"
                             ) from exc
        space = self.model.observation_space
        shape = getattr(space, "shape", None)
        if shape is None or len(shape) != 1:
            raise KamonError(f"agent {spec.text!r}: its observation space {space} is not a "
                             "flat vector (kamon's observations are (SIZE,) float32)")
        self.obs_size = int(shape[0])
        n = getattr(self.model.action_space, "n", None)
        if n is None:
            raise KamonError(f"agent {spec.text!r}: its action space "
                             f"{self.model.action_space} is not Discrete (kamon's actions are "
                             "Discrete(num_actions))")
        self.num_actions = int(n)

    def choose(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None
               ) -> int:
        """MaskablePPO's likeliest legal action, or a sample of its masked distribution."""
        legal = mask.astype(bool)
        if rng is None:
            action, _ = self.model.predict(obs, action_masks=legal, deterministic=True)
            return int(np.asarray(action).reshape(-1)[0])
        import torch

        policy: Any = self.model.policy
        with torch.no_grad():
            tensor, _ = policy.obs_to_tensor(obs)
            dist = policy.get_distribution(tensor, action_masks=legal[None])
            logits = dist.distribution.logits.cpu().numpy()[0]
        return _masked_choice(logits, mask, rng)


class _TorchPolicy(_Policy):
    """A TorchScript module or a whole pickled torch module: observations to logits."""

    def __init__(self, spec: Spec, path: Path) -> None:
        torch = _import_torch(spec)
        self.torch = torch
        self.spec = spec
        try:
            with zipfile.ZipFile(path) as zf:
                scripted = any(n.endswith("constants.pkl") for n in zf.namelist())
        except (zipfile.BadZipFile, OSError):
            scripted = False
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if scripted:
                    module = torch.jit.load(str(path), map_location="cpu")
                else:
                    module = torch.load(str(path), map_location="cpu", weights_only=False)
        except Exception as exc:
            raise KamonError(f"agent {spec.text!r}: {spec.target} does not load as a "
                             f"TorchScript module (torch.jit.load) or a whole torch module "
                             f"(torch.load): {_why(exc)}; a module's own class must be "
                             "importable where it is loaded") from exc
        if isinstance(module, dict):
            raise KamonError(f"agent {spec.text!r}: {spec.target} holds a dict (a state_dict, "
                             "weights only?), not a module: save the whole module "
                             "(torch.save(model, path)) or a TorchScript one "
                             "(torch.jit.script(model).save(path))")
        if not callable(module):
            raise KamonError(f"agent {spec.text!r}: {spec.target} holds a "
                             f"{type(module).__name__}, not a module mapping observations "
                             "to logits")
        if hasattr(module, "eval"):
            module.eval()
        self.module = module
        for sub in getattr(module, "modules", lambda: [])():
            size = getattr(sub, "in_features", None)
            if isinstance(size, int):
                self.obs_size = size
                break

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """The module's logits for one observation, as a 1-D array."""
        torch = self.torch
        with torch.no_grad():
            out = self.module(torch.as_tensor(np.asarray(obs, dtype=np.float32)[None]))
        if isinstance(out, tuple | list):
            out = out[0]
        arr = np.asarray(out.detach().cpu().numpy() if hasattr(out, "detach") else out,
                         dtype=np.float64)
        if arr.ndim != 2 or arr.shape[0] != 1:
            raise KamonError(f"agent {self.spec.text!r}: the module returned an array of shape "
                             f"{tuple(arr.shape)} for a batch of one observation; it must "
                             "return logits of shape (1, num_actions)")
        return arr[0]

    def probe(self, size: int, title: str | None) -> None:
        """Learn the action count from the logits of a zero observation of `size` (that
        of the game `title`, or None: the size the module's first layer takes)."""
        try:
            self.num_actions = int(self.logits(np.zeros(size, dtype=np.float32)).shape[0])
        except KamonError:
            raise
        except Exception as exc:
            fit = f" does not fit {title}" if title else ""
            whose = f", {title}'s" if title else ""
            raise KamonError(f"agent {self.spec.text!r}{fit}: the module does not take a "
                             f"batch of observations of shape (1, {size}){whose}: "
                             f"{_why(exc)}") from exc

    def choose(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None
               ) -> int:
        """The legal action with the highest logit (or sampled from the masked softmax)."""
        logits = self.logits(obs)
        if logits.shape[0] != mask.shape[0]:
            raise KamonError(f"agent {self.spec.text!r}: the module returned "
                             f"{logits.shape[0]} logits; the game has {mask.shape[0]} actions")
        return _masked_choice(logits, mask, rng)


def _policy(spec: Spec) -> _Policy:
    """The spec's policy, loaded once per process and file version."""
    what = "MaskablePPO policy" if spec.kind == "sb3" else "torch module"
    path = _file_of(spec, what)
    st = path.stat()
    key = (spec.kind, str(path), st.st_mtime_ns, st.st_size)
    with _LOCK:
        found = _MODELS.get(key)
        if found is None:
            found = _Sb3Policy(spec, path) if spec.kind == "sb3" else _TorchPolicy(spec, path)
            _MODELS[key] = found
        policy: _Policy = found
        return policy


def _encoding(game: str) -> Any:
    """The game's observation encoding (kamon.rl, imported only for policies)."""
    from kamon.rl.encoding import encoding

    return encoding(game)


def _title(game: str) -> str:
    """'The White Castle (white-castle)'."""
    from kamon.games import get_game

    return f"{get_game(game).title} ({game})"


def _check_fit(spec: Spec, policy: _Policy, game: str) -> None:
    """A KamonError unless the policy's observation size and action count are the game's."""
    key = (id(policy), game)  # (a policy is cached per file version: its id is kept)
    with _LOCK:
        if key in _FITS:
            return
    from kamon.rl.encoding import observed_games

    enc = _encoding(game)
    if isinstance(policy, _TorchPolicy):
        size = policy.obs_size or enc.size
        policy.probe(size, _title(game) if size == enc.size else None)
    if (policy.obs_size, policy.num_actions) != (enc.size, enc.num_actions):
        obs = "?" if policy.obs_size is None else str(policy.obs_size)
        acts = "?" if policy.num_actions is None else str(policy.num_actions)
        fits = [_title(g) for g in observed_games() if g != game and
                (_encoding(g).size, _encoding(g).num_actions) == (policy.obs_size,
                                                                   policy.num_actions)]
        hint = (f"; it fits {' and '.join(fits)}" if fits else
                "; train it on this game's environment (kamon.rl.make_gym_env)")
        raise KamonError(f"agent {spec.text!r} does not fit {_title(game)}: the policy takes "
                         f"observations of {obs} values and chooses among {acts} actions, "
                         f"but {_title(game)} has observations of {enc.size} values and "
                         f"{enc.num_actions} actions{hint}")
    with _LOCK:
        _FITS[key] = None


def game_of(state: State) -> str | None:
    """The registry name of a state's game (None for a state of no registered game)."""
    from kamon.core.registry import games

    game = state.game
    return game.name if games().get(game.name) is game else None


class PolicyAgent:
    """A policy acting for the seat to move: its observation and legal-action mask in,
    the likeliest legal action (or a seeded sample) out."""

    def __init__(self, spec: Spec, seed: int) -> None:
        self.spec = spec
        self.policy = _policy(spec)
        self.name = Path(spec.target).name + (":sample" if spec.mode == "sample" else "")
        self.rng = (np.random.default_rng(Rng(seed).next_u64()) if spec.mode == "sample"
                    else None)

    def check_fit(self, game: str) -> None:
        """A KamonError unless the policy fits the game's observations and actions."""
        _check_fit(self.spec, self.policy, game)

    def act(self, state: State) -> int:
        """The policy's action id for the seat to move."""
        seat = state.to_move
        if seat is None:
            raise KamonError("an agent was asked to move, but the game is over")
        game = game_of(state)
        if game is None:
            raise KamonError(f"agent {self.spec.text!r}: a policy plays kamon's own games only "
                             f"(not a {type(state).__name__})")
        self.check_fit(game)
        enc = _encoding(game)
        return self.policy.choose(enc.observe(state, seat), enc.mask(state), self.rng)


# --- the wrapper every plug-in agent plays through --------------------------------------

class PluginAgent:
    """A plug-in agent as kamon runs it: the agent gets a copy of the state, and its
    answer (an Action or an action id) must be one of the legal actions now, or
    IllegalAgentMove says which agent chose what at which decision."""

    def __init__(self, inner: Any, spec: str, name: str) -> None:
        self.inner = inner
        self.spec = spec
        self.name = name

    def act(self, state: State) -> Action:
        """The agent's action, checked against the legal actions (the state unchanged)."""
        legal = state.legal_actions()
        chosen = self.inner.act(state.clone())
        action = _legal_choice(chosen, legal)
        if action is None:
            raise IllegalAgentMove(illegal_message(self.name, self.spec, state, chosen, legal))
        return action


def _legal_choice(chosen: Any, legal: Sequence[Action]) -> Action | None:
    """The legal Action an answer names (an Action, or an int id), None if none."""
    if isinstance(chosen, bool | np.bool_):
        return None
    if isinstance(chosen, Action):
        aid: Any = chosen.id
    elif isinstance(chosen, int | np.integer):
        aid = int(chosen)
    else:
        aid = getattr(chosen, "id", None)  # an Action of another class (e.g. reloaded)
        if not isinstance(aid, int | np.integer) or isinstance(aid, bool):
            return None
    for action in legal:
        if action.id == aid:
            return action
    return None


def illegal_message(name: str, spec: str, state: State, chosen: Any,
                    legal: Sequence[Action]) -> str:
    """Which agent chose what, at which decision, and what was legal."""
    if isinstance(chosen, Action):
        what = f"action {chosen.id} ({chosen.text!r})"
    elif isinstance(chosen, int | np.integer) and not isinstance(chosen, bool):
        what = f"action id {int(chosen)}"
        text = _action_text(state, int(chosen))
        if text:
            what += f" ({text!r})"
    else:
        what = (f"{chosen!r:.60} (a {type(chosen).__name__}, not one of "
                "state.legal_actions() or an action id)")
    who = repr(name) if name == spec else f"{name!r} ({spec})"
    seat = state.to_move
    seat_name = state.name(seat) if seat is not None else f"seat {seat}"
    decision = len(state.history) + 1
    doing = f": {state.decision_text()}"
    shown = ", ".join(f"{a.id} {a.text!r}" for a in legal[:LEGAL_SHOWN])
    more = f" and {len(legal) - LEGAL_SHOWN} more" if len(legal) > LEGAL_SHOWN else ""
    return (f"agent {who} playing {seat_name} chose {what} at decision {decision} of the "
            f"game{doing}; it is not legal now (the game is unchanged). The legal actions "
            f"are: {shown}{more}")


def _action_text(state: State, aid: int) -> str:
    """An action id's notation in the state's game ('' if out of range or unknown)."""
    g = state.game
    if not 0 <= aid < g.num_actions:
        return ""
    try:
        return str(g.action_text(aid))
    except Exception:
        return ""


# --- building and checking -------------------------------------------------------------

def build_plugin(text: str, seed: int, game: str | None = None) -> PluginAgent:
    """A plug-in agent from its spec (`game`: checked to fit it now; a policy checks the
    game of every state it is asked about anyway). KamonError for any mistake."""
    spec = parse_spec(text)
    if spec.kind in ("sb3", "torch"):
        policy = PolicyAgent(spec, seed)
        if game is not None:
            policy.check_fit(_canonical(game))
        return PluginAgent(policy, spec.text, policy.name)
    agent = _build(spec, seed)
    name = getattr(agent, "name", None)
    return PluginAgent(agent, spec.text, name if isinstance(name, str) and name.strip()
                       else spec.text)


def _canonical(game: str) -> str:
    """A game's registry name (aliases resolved)."""
    from kamon.core.registry import canonical

    return canonical(game)


def agent_labels(specs: Iterable[str], game: str | None = None) -> dict[str, str]:
    """Build every spec once (seed 0; fitted to `game` when given), so any mistake is
    found before a game starts; the name each goes by in tables: a plug-in agent's own
    `name`, or its spec where that name is taken (by another agent of the list, or by a
    registry name)."""
    from kamon.agents import AGENTS, make_agent

    specs = list(dict.fromkeys(specs))
    names: dict[str, str] = {}
    for spec in specs:
        agent = make_agent(spec, 0, game=game)
        names[spec] = agent.name if isinstance(agent, PluginAgent) else spec
    taken: dict[str, int] = {}
    for label in names.values():
        taken[label] = taken.get(label, 0) + 1
    out = {}
    for spec, label in names.items():
        clash = taken[label] > 1 or (label != spec and (label in names or label in AGENTS))
        out[spec] = spec if clash else label
    return out


__all__ = ["FORMS", "IllegalAgentMove", "PluginAgent", "PolicyAgent", "Spec", "agent_labels",
           "build_plugin", "game_of", "illegal_message", "looks_like_plugin", "parse_spec"]
