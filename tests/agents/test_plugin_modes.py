"""A policy spec with a mode it does not have (`ppo.zip:greedy`) names the valid modes,
not a module that cannot be imported; every interface refuses it before any game."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from kamon.agents.plugin import MODES, parse_spec
from kamon.cli import app
from kamon.core.errors import KamonError


@pytest.mark.parametrize("spec", ["ppo.zip:greedy", "model.pt:Greedy", "net.pth:argmax"])
def test_an_unknown_policy_mode_names_the_modes(spec: str) -> None:
    """The message says the mode is not one, lists deterministic and sample, and shows
    the spec written right."""
    path, _, mode = spec.rpartition(":")
    with pytest.raises(KamonError) as err:
        parse_spec(spec)
    message = str(err.value)
    assert f"{mode!r} is not a mode" in message
    for valid in MODES:
        assert f"{path}:{valid}" in message
    assert "cannot import" not in message


def test_the_known_modes_still_parse() -> None:
    """ppo.zip:sample and model.pt:deterministic are policies in that mode."""
    assert parse_spec("ppo.zip:sample").mode == "sample"
    assert parse_spec("model.pt:DETERMINISTIC").mode == "deterministic"
    assert parse_spec("mymod:Agent").kind == "module"


def test_cli_refuses_an_unknown_mode_in_one_line() -> None:
    """kamon tournament --agents ppo.zip:greedy,random: exit 2, the modes named."""
    res = CliRunner(env={"KAMON_DATA_OVERLAY": None, "COLUMNS": "200"}).invoke(
        app, ["tournament", "white-castle", "--agents", "ppo.zip:greedy,random",
              "--games", "2"])
    assert res.exit_code == 2
    assert "'greedy' is not a mode" in res.output and "ppo.zip:sample" in res.output


def test_cli_play_refuses_an_unknown_mode_in_one_line() -> None:
    """kamon play --seats random,ppo.zip:greedy: the modes named, not an unknown seat kind."""
    res = CliRunner(env={"KAMON_DATA_OVERLAY": None, "COLUMNS": "200"}).invoke(
        app, ["play", "white-castle", "--seats", "random,ppo.zip:greedy"])
    assert res.exit_code == 2
    assert "'greedy' is not a mode" in res.output and "unknown seat kind" not in res.output
