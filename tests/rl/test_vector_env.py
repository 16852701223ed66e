"""The native batched Gymnasium environment (kamon.rl.vector_env): a faithful batch of
`KamonGymEnv`s, same-step auto-reset (and the other two modes), self-play with every
seat's reward at the end, masks equal to `Encoding.mask`, illegal actions that lose only
their own game, the spaces, `gymnasium.make_vec`, and clear refusals of bad arguments."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv

from kamon.core.errors import IllegalAction
from kamon.rl import make_gym_env, make_vector_env
from kamon.rl.encoding import encoding, final_rewards
from kamon.rl.vector_env import KamonVectorEnv
from tests.rl.registry import DEFAULTS


def pick(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of a batch of masks."""
    return np.argmax(rng.random(masks.shape) * (masks > 0), axis=1)


# Every registered game at its default count (the last seat learning, random bots), then
# the solo game, mixed opponents and the margin reward.
BATCHED: list[tuple[str, dict[str, Any]]] = [
    (game, {"players": players, "seat": players - 1, "opponents": "random", **options})
    for game, players, options in DEFAULTS] + [
    ("white-castle", {"players": 3, "seat": 1, "opponents": ["easy", "random"]}),
    ("white-castle", {"players": 1, "difficulty": "easy"}),
    ("clansman", {"seat": 2, "opponents": "random", "reward": "margin"}),
]


@pytest.mark.parametrize(("game", "kwargs"), BATCHED)
def test_the_batch_replays_single_envs_with_the_matching_seeds(
        game: str, kwargs: dict[str, Any]) -> None:
    """Game i of a vector env reset with seed s plays exactly what a KamonGymEnv reset
    with seed s + i plays: the same observations, masks, rewards and endings, through two
    episodes of every game (the auto-reset's next game is the single env's next reset)."""
    n = 3
    venv = make_vector_env(game, n, **kwargs)
    singles = [make_gym_env(game, **kwargs) for _ in range(n)]
    obs, infos = venv.reset(seed=40)
    first = [env.reset(seed=40 + i) for i, env in enumerate(singles)]
    for i, (o, info) in enumerate(first):
        assert np.array_equal(obs[i], o)
        assert np.array_equal(infos["action_mask"][i], info["action_mask"])
    rng = np.random.default_rng(7)
    episodes = np.zeros(n, dtype=int)
    steps = 0
    while episodes.min() < 2:
        steps += 1
        assert steps < 2000
        actions = pick(infos["action_mask"], rng)
        obs, rewards, terms, truncs, infos = venv.step(actions)
        assert not truncs.any()
        assert np.array_equal(infos["action_mask"].astype(bool), venv.action_masks())
        for i, env in enumerate(singles):
            o, r, term, _, info = env.step(int(actions[i]))
            assert rewards[i] == r and terms[i] == term
            if term:
                episodes[i] += 1
                assert infos["_final_obs"][i]
                assert np.array_equal(infos["final_obs"][i], o)
                assert infos["rewards"][i][env.seat] == r
                o, info = env.reset()
            else:
                assert "final_obs" not in infos or not infos["_final_obs"][i]
            assert np.array_equal(obs[i], o)
            assert np.array_equal(infos["action_mask"][i], info["action_mask"])
            assert venv.game_seeds[i] == env.game_seed


def test_same_step_autoreset_starts_the_next_game_and_reports_the_last() -> None:
    """When a game ends, the row returned is already the next game's first decision (a
    non-empty mask), and infos carry the ended game's final observation, zero mask and
    every seat's final rewards; other rows carry nothing final."""
    env = make_vector_env("white-castle", 4, players=2, opponents="random")
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    enc = encoding("white-castle")
    _, infos = env.reset(seed=3)
    rng = np.random.default_rng(0)
    seen_end = 0
    for _ in range(400):
        before = list(env.states)
        seeds = env.game_seeds.copy()
        obs, rewards, terms, _, infos = env.step(pick(infos["action_mask"], rng))
        assert infos["action_mask"].sum(axis=1).min() > 0  # every row is a live decision
        if not terms.any():
            assert "final_obs" not in infos and not infos["rewards"].any()
            continue
        fin = infos["final_info"]
        assert np.array_equal(infos["_final_obs"], terms)
        assert np.array_equal(infos["_final_info"], terms)
        for i in np.flatnonzero(terms):
            seen_end += 1
            old = before[i]
            assert old.is_over() and env.states[i] is not old
            assert env.game_seeds[i] != seeds[i] and not env.states[i].is_over()
            expected = final_rewards(old, "placement", enc.margin_scale)
            assert list(infos["rewards"][i]) == expected == list(fin["rewards"][i])
            assert rewards[i] == expected[0]
            assert np.array_equal(infos["final_obs"][i], enc.observe(old, 0))
            assert np.array_equal(obs[i], enc.observe(env.states[i], 0))
            assert not fin["action_mask"][i].any()
        for i in np.flatnonzero(~terms):
            assert infos["final_obs"][i] is None and not infos["rewards"][i].any()
    assert seen_end >= 8


def test_next_step_and_disabled_autoreset() -> None:
    """NEXT_STEP: the ended game is returned as it is (mask all 0, to_move -1) and the next
    step ignores that row's action and starts the same next game SAME_STEP would (reward
    0). DISABLED: stepping an ended game is refused until reset(reset_mask) restarts it,
    leaving the other games as they were."""
    nxt = make_vector_env("clansman", 2, opponents="random", autoreset_mode="NextStep")
    same = make_vector_env("clansman", 2, opponents="random")
    assert nxt.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    _, infos = nxt.reset(seed=9)
    same.reset(seed=9)
    rng = np.random.default_rng(1)
    for _ in range(500):
        obs, rewards, terms, _, infos = nxt.step(pick(infos["action_mask"], rng))
        if terms.any():
            break
    else:
        pytest.fail("no game ended")
    assert "final_obs" not in infos
    i = int(np.flatnonzero(terms)[0])
    assert nxt.states[i].is_over() and infos["to_move"][i] == -1
    assert not infos["action_mask"][i].any() and not nxt.action_masks()[i].any()
    assert np.array_equal(obs[i], encoding("clansman").observe(nxt.states[i], 0))
    actions = pick(infos["action_mask"], rng)
    actions[i] = 501  # ignored: the row restarts
    obs, rewards, terms, _, infos = nxt.step(actions)
    assert rewards[i] == 0.0 and not terms[i] and infos["mover"][i] == -1
    assert not nxt.states[i].is_over() and infos["action_mask"][i].any()
    # the same second game as in a SAME_STEP env with the same seed
    second = np.random.default_rng(9 + i)
    second.integers(0, 2**31 - 1)
    assert nxt.game_seeds[i] == second.integers(0, 2**31 - 1)

    off = make_vector_env("white-castle", 3, players=2, opponents="random",
                          autoreset_mode=AutoresetMode.DISABLED)
    _, infos = off.reset(seed=2)
    for _ in range(500):
        _, _, terms, _, infos = off.step(pick(infos["action_mask"], rng))
        if terms.any():
            break
    with pytest.raises(RuntimeError, match="reset_mask"):
        off.step(np.zeros(3, dtype=np.int64))
    kept = [s for s, t in zip(off.states, terms, strict=True) if not t]
    histories = [list(s.history) for s in kept]
    obs, infos = off.reset(options={"reset_mask": terms.copy()})
    assert [s for s, t in zip(off.states, terms, strict=True) if not t] == kept
    assert [list(s.history) for s in kept] == histories
    assert infos["action_mask"].sum(axis=1).min() > 0
    off.step(pick(infos["action_mask"], rng))


@pytest.mark.parametrize(("game", "players", "reward", "options"), [
    (game, players, "placement", options) for game, players, options in DEFAULTS] + [
    ("clansman", None, "placement", {}), ("white-castle", 3, "margin", {})])
def test_self_play_lets_the_caller_play_every_seat(
        game: str, players: int | None, reward: str, options: dict[str, Any]) -> None:
    """opponents=None: each row is the observation and mask of the seat to move (checked
    against an engine game replaying the same seed and actions), the step reward is the
    mover's, and at the end infos['rewards'] holds every seat's final reward (a row sums to
    0 with 'placement')."""
    n = 3
    env = make_vector_env(game, n, opponents=None, players=players, reward=reward,
                          **options)
    enc = encoding(game)
    obs, infos = env.reset(seed=5)
    shadows = [enc.game.new_game(players or enc.game.max_players, seed=int(s), **options)
               for s in env.game_seeds]
    rng = np.random.default_rng(2)
    ended = np.zeros(n, dtype=int)
    for _ in range(3000):
        for i, shadow in enumerate(shadows):
            q = shadow.to_move
            assert infos["to_move"][i] == q
            assert np.array_equal(obs[i], enc.observe(shadow, q))
            assert np.array_equal(infos["action_mask"][i], enc.mask(shadow))
        movers = infos["to_move"].copy()
        actions = pick(infos["action_mask"], rng)
        obs, rewards, terms, _, infos = env.step(actions)
        assert np.array_equal(infos["mover"], movers)
        for i, shadow in enumerate(shadows):
            shadow.apply(int(actions[i]))
            if not terms[i]:
                assert rewards[i] == 0.0 and not infos["rewards"][i].any()
                continue
            ended[i] += 1
            assert shadow.is_over()
            expected = final_rewards(shadow, reward, enc.margin_scale)
            assert list(infos["rewards"][i]) == expected
            assert rewards[i] == expected[movers[i]]
            if reward == "placement":
                assert abs(sum(expected)) < 1e-9
            assert np.array_equal(infos["final_obs"][i], enc.observe(shadow, int(movers[i])))
            shadows[i] = enc.game.new_game(players or enc.game.max_players,
                                           seed=int(env.game_seeds[i]), **options)
        if ended.min() >= 1:
            break
    assert ended.min() >= 1


def test_an_illegal_action_loses_only_its_own_game_or_raises() -> None:
    """illegal='lose': the game that got an illegal action ends with -1 for its mover (the
    other seats share +1), says why, and restarts; the other games just move on.
    illegal='raise': IllegalAction naming the game, and no game moves at all."""
    env = make_vector_env("clansman", 3, opponents=None)
    obs, infos = env.reset(seed=4)
    rng = np.random.default_rng(3)
    actions = pick(infos["action_mask"], rng)
    bad = int(np.flatnonzero(infos["action_mask"][1] == 0)[0])
    actions[1] = bad
    before = [len(s.history) for s in env.states]
    mover = int(infos["to_move"][1])
    last_obs = obs[1].copy()
    _, rewards, terms, _, infos = env.step(actions)
    assert list(terms) == [False, True, False]
    assert list(rewards) == [0.0, -1.0, 0.0]
    assert list(infos["_illegal_action"]) == [False, True, False]
    assert "not legal" in infos["illegal_action"][1] and str(bad) in infos["illegal_action"][1]
    expected = [1 / 3] * 4
    expected[mover] = -1.0
    assert np.allclose(infos["rewards"][1], expected) and abs(infos["rewards"][1].sum()) < 1e-9
    assert np.array_equal(infos["final_obs"][1], last_obs)
    assert [len(s.history) for s in env.states][::2] == [before[0] + 1, before[2] + 1]
    assert len(env.states[1].history) == 0  # a new game

    bots = make_vector_env("white-castle", 2, players=2, opponents="random")
    _, infos = bots.reset(seed=1)
    actions = pick(infos["action_mask"], rng)
    actions[0] = int(np.flatnonzero(infos["action_mask"][0] == 0)[0])
    _, rewards, terms, _, infos = bots.step(actions)
    assert list(terms) == [True, False] and rewards[0] == -1.0
    assert list(infos["rewards"][0]) == [-1.0, 1.0]

    strict = make_vector_env("clansman", 3, opponents="random", illegal="raise")
    _, infos = strict.reset(seed=4)
    actions = pick(infos["action_mask"], rng)
    actions[2] = int(np.flatnonzero(infos["action_mask"][2] == 0)[0])
    histories = [list(s.history) for s in strict.states]
    with pytest.raises(IllegalAction, match="game 2"):
        strict.step(actions)
    assert [list(s.history) for s in strict.states] == histories


def test_malformed_actions_are_refused_and_nothing_moves() -> None:
    """Actions of the wrong shape or type, or outside the action space, are a ValueError
    that says what was wrong; a step before reset() is a RuntimeError."""
    env = make_vector_env("white-castle", 2, players=2, opponents="random")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(2, dtype=np.int64))
    _, infos = env.reset(seed=0)
    histories = [list(s.history) for s in env.states]
    for bad, match in [(np.zeros(3, dtype=np.int64), "shape"), (np.zeros((2, 1), int), "shape"),
                       (np.zeros(2), "integer"), (np.array([0, 99]), "outside"),
                       (np.array([-1, 0]), "game 0"), ([True, False], "integer")]:
        with pytest.raises(ValueError, match=match):
            env.step(bad)
    assert [list(s.history) for s in env.states] == histories
    env.step(pick(infos["action_mask"], np.random.default_rng(0)).tolist())  # a list is fine


def test_spaces_and_batch_shapes() -> None:
    """Batched spaces over the single ones; observations, masks and infos have the
    documented shapes and dtypes; copy=False hands out the buffer itself."""
    enc = encoding("clansman")
    env = make_vector_env("clansman", 5, opponents="random", render_mode="ansi")
    assert env.num_envs == 5
    assert env.single_observation_space == gymnasium.spaces.Box(0.0, 1.0, (enc.size,),
                                                                np.float32)
    assert env.single_action_space == gymnasium.spaces.Discrete(enc.num_actions)
    assert env.observation_space.shape == (5, enc.size)
    assert env.observation_space.dtype == np.float32
    assert isinstance(env.action_space, gymnasium.spaces.MultiDiscrete)
    assert list(env.action_space.nvec) == [enc.num_actions] * 5
    obs, infos = env.reset(seed=1)
    assert obs in env.observation_space
    assert infos["action_mask"].shape == (5, enc.num_actions)
    assert infos["action_mask"].dtype == np.int8
    assert env.action_masks().dtype == bool and env.action_masks().shape == (5, enc.num_actions)
    assert infos["to_move"].shape == (5,) and infos["rewards"].shape == (5, 4)
    obs2, rewards, terms, truncs, infos = env.step(pick(infos["action_mask"],
                                                        np.random.default_rng(0)))
    assert obs2 in env.observation_space and rewards.shape == terms.shape == truncs.shape == (5,)
    assert not np.shares_memory(obs, obs2)
    frames = env.render()
    assert frames is not None and len(frames) == 5 and all(isinstance(f, str) for f in frames)
    raw = make_vector_env("clansman", 2, opponents="random", copy=False)
    a, infos = raw.reset(seed=0)
    b, *_ = raw.step(pick(infos["action_mask"], np.random.default_rng(0)))
    assert a is b
    env.close()


def test_make_vec_builds_the_native_env_and_sync_agrees() -> None:
    """The registered ids build KamonVectorEnv through `gymnasium.make_vec` (its default
    and the explicit vector_entry_point mode); the sync mode's SyncVectorEnv of
    KamonGymEnvs starts from the same observations."""
    kwargs = {"players": 2, "opponents": "random"}
    for mode in (None, "vector_entry_point"):
        env = gymnasium.make_vec("kamon/WhiteCastle-v0", num_envs=3, vectorization_mode=mode,
                                 **kwargs)
        assert isinstance(env, KamonVectorEnv) and env.num_envs == 3
        assert env.spec is not None and env.spec.id == "kamon/WhiteCastle-v0"
    selfplay = gymnasium.make_vec("kamon/Clansman-v0", num_envs=2, opponents=None)
    assert isinstance(selfplay, KamonVectorEnv) and selfplay.self_play
    obs, infos = env.reset(seed=8)
    sync = gymnasium.make_vec("kamon/WhiteCastle-v0", num_envs=3, vectorization_mode="sync",
                              **kwargs)
    assert isinstance(sync, SyncVectorEnv)
    sync_obs, sync_infos = sync.reset(seed=8)
    assert np.array_equal(obs, sync_obs)
    assert np.array_equal(infos["action_mask"], sync_infos["action_mask"])
    actions = pick(infos["action_mask"], np.random.default_rng(0))
    assert np.array_equal(env.step(actions)[0], sync.step(actions)[0])


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"num_envs": 0}, "num_envs"),
    ({"num_envs": True}, "num_envs"),
    ({"num_envs": "4"}, "num_envs"),
    ({"seat": 4}, "seat"),
    ({"opponents": "grandmaster"}, "unknown agent"),
    ({"opponents": ["random"]}, "one per other seat"),
    ({"opponents": 3}, "opponents"),
    ({"reward": "score"}, "reward"),
    ({"illegal": "ignore"}, "illegal"),
    ({"autoreset_mode": "Sometimes"}, "autoreset_mode"),
    ({"render_mode": "human"}, "render_mode"),
    ({"players": 7}, "cannot set up"),
    ({"expert": "yes please"}, "cannot set up"),
    ({"game": "chess"}, "unknown game 'chess'"),
])
def test_bad_arguments_are_refused_clearly(kwargs: dict[str, Any], match: str) -> None:
    """Every constructor argument is checked up front, with a message naming it."""
    args = {"game": "clansman", "num_envs": 2, **kwargs}
    with pytest.raises(ValueError, match=match):
        make_vector_env(**args)


def test_bad_reset_arguments_are_refused_clearly() -> None:
    """Seeds of the wrong number or kind, unknown reset options and malformed reset masks
    are ValueErrors; a list of seeds seeds each game."""
    env = make_vector_env("white-castle", 2, players=2, opponents="random")
    with pytest.raises(ValueError, match="reset every game once"):
        env.reset(options={"reset_mask": np.array([True, False])})
    for seed, match in [([1, 2, 3], "one seed per game"), ("7", "seed"), ([1, -2], "seed"),
                        (1.5, "seed")]:
        with pytest.raises(ValueError, match=match):
            env.reset(seed=seed)  # type: ignore[arg-type]
    env.reset(seed=[11, None])
    other = make_vector_env("white-castle", 1, players=2, opponents="random")
    other.reset(seed=11)
    assert env.game_seeds[0] == other.game_seeds[0]
    for options, match in [({"mask": 1}, "reset_mask"),
                           ({"reset_mask": np.array([1, 0])}, "bool"),
                           ({"reset_mask": np.array([True])}, "shape"),
                           ({"reset_mask": np.array([False, False])}, "at least one")]:
        with pytest.raises(ValueError, match=match):
            env.reset(options=options)
