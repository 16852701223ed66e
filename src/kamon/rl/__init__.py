"""Research interfaces to kamon's games: PettingZoo AEC, Gymnasium and OpenSpiel.

- `make_env(game, players=None, reward="placement", render_mode=None, **options)`: the
  PettingZoo AEC environment (one agent per seat);
- `make_gym_env(game, seat=0, opponents="normal", **options)`: a Gymnasium environment in
  which one seat learns and kamon bots play the others;
- `make_vector_env(game, num_envs, seat=0, opponents="normal", **options)`: N games of it
  stepped together in this process, a native `gymnasium.vector.VectorEnv` (batched
  observations and masks, same-step auto-reset; `opponents=None` for self-play, the caller
  moving for whichever seat is to move; see `kamon.rl.vector_env`);
- importing this package registers, for every game with an observation, the OpenSpiel
  game `python_kamon_<game>` (`python_kamon_white_castle`: `pyspiel.load_game(name,
  {"players": 3, ...})`, its parameters from the game's option schema) and the
  Gymnasium id of the game's current frozen version, `kamon/<Game>-v<N>`
  (`kamon.rl.versions`: the version pins the rules-and-data digest, the observation
  size and the action count; `kamon/WhiteCastle-v0`: `gymnasium.make(id,
  seat=0, opponents="normal", ...)`, the same environment as `make_gym_env`; and
  `gymnasium.make_vec(id, num_envs=N, ...)` builds `make_vector_env`'s batched environment
  through the ids' `vector_entry_point`, `vectorization_mode="sync"` a `SyncVectorEnv` of
  `make_gym_env`s).

Games by registry name ("white-castle", "clansman"); options go to `GAME.new_game` (each
game's option schema, `GAME.options`, lists them). All three share one observation
encoding per game
(`kamon.rl.encoding`, documented field by field in docs/OBSERVATIONS.md), built from a
seat's `view` only. Needs the `rl` extra (`pip install kamon[rl]`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kamon.rl.encoding import REWARD_MODES, Encoding, encoding, observed_games

if TYPE_CHECKING:
    from gymnasium.vector import AutoresetMode

    from kamon.rl.gym_env import KamonGymEnv
    from kamon.rl.pettingzoo_env import KamonAECEnv
    from kamon.rl.vector_env import KamonVectorEnv


def make_env(game: str, players: int | None = None, reward: str = "placement",
             render_mode: str | None = None, **options: Any) -> KamonAECEnv:
    """The PettingZoo AEC environment of a game (players default to the game's most)."""
    from kamon.rl.pettingzoo_env import KamonAECEnv

    return KamonAECEnv(game, players=players, reward=reward, render_mode=render_mode,
                       **options)


def make_gym_env(game: str, seat: int = 0, opponents: str | Sequence[str] = "normal",
                 players: int | None = None, reward: str = "placement",
                 illegal: str = "lose", render_mode: str | None = None,
                 **options: Any) -> KamonGymEnv:
    """The Gymnasium environment of one seat of a game, kamon bots in the other seats."""
    from kamon.rl.gym_env import KamonGymEnv

    return KamonGymEnv(game, seat=seat, opponents=opponents, players=players, reward=reward,
                       illegal=illegal, render_mode=render_mode, **options)


def make_vector_env(game: str, num_envs: int, seat: int = 0,
                    opponents: str | Sequence[str] | None = "normal", players: int | None = None,
                    reward: str = "placement", illegal: str = "lose",
                    autoreset_mode: AutoresetMode | str = "SameStep", copy: bool = True,
                    render_mode: str | None = None, **options: Any) -> KamonVectorEnv:
    """The batched Gymnasium environment: `num_envs` games stepped in one call (bots in the
    seats other than `seat`, or self-play with `opponents=None`)."""
    from kamon.rl.vector_env import KamonVectorEnv

    return KamonVectorEnv(game, num_envs=num_envs, seat=seat, opponents=opponents,
                          players=players, reward=reward, illegal=illegal,
                          autoreset_mode=autoreset_mode, copy=copy, render_mode=render_mode,
                          **options)


def _register_openspiel() -> bool:
    """Register the OpenSpiel games if OpenSpiel is installed; whether it is."""
    try:
        from kamon.rl.openspiel_game import register
    except ImportError:
        return False
    register()
    return True


def _register_gymnasium() -> None:
    """Register the Gymnasium ids (once; `gymnasium.make` then builds KamonGymEnv, and
    `gymnasium.make_vec` KamonVectorEnv)."""
    try:
        import gymnasium
    except ImportError:
        return
    for gym_id, game in GYM_IDS.items():
        if gym_id not in gymnasium.registry:
            gymnasium.register(id=gym_id, entry_point="kamon.rl.gym_env:KamonGymEnv",
                               vector_entry_point="kamon.rl.vector_env:KamonVectorEnv",
                               kwargs={"game": game})


def _gym_id(game: str) -> str:
    """The Gymnasium id of a game's current frozen version (`kamon.rl.versions`); -v0 for
    a game that declares none yet (tests/rl/test_versions.py asks it to)."""
    from kamon.rl.versions import VERSIONS, env_id

    if game in VERSIONS:
        return env_id(game)
    return "kamon/" + "".join(w.title() for w in game.split("-")) + "-v0"


# Every registered game with an observation: its Gymnasium id (`kamon/WhiteCastle-v0`
# for white-castle, the current version) and its OpenSpiel name
# (`python_kamon_white_castle`).
GYM_IDS = {_gym_id(g): g for g in observed_games()}
_register_gymnasium()
OPENSPIEL = _register_openspiel()
OPENSPIEL_GAMES = {g: "python_kamon_" + g.replace("-", "_") for g in observed_games()}

__all__ = ["GYM_IDS", "OPENSPIEL", "OPENSPIEL_GAMES", "REWARD_MODES", "Encoding", "encoding", "make_env",
           "make_gym_env", "make_vector_env"]
