"""stickdice.compare: the comparison workbench's figures as columns (issue 28)."""

import pytest

import stickdice

SMALL = dict(games=60, trace=[], luck_games=0, detailed=20, exact=False, seed=3)


def test_columns_have_equal_length_and_name_every_configuration():
    out = stickdice.compare(
        ["issiren", {"game": "sig-el-oued", "players": 2, "options": {"cairo_always_three": True}}],
        **SMALL,
    )
    lengths = {k: len(v) for k, v in out.items()}
    assert len(set(lengths.values())) == 1, lengths
    assert set(out["configuration"]) == {"issiren 2p", "sig-el-oued 2p cairo_always_three=true"}
    for col in ("game", "players", "options", "agent", "metric", "value", "ci95", "n", "exact", "p_holm", "significant"):
        assert col in out
    rows = [i for i, m in enumerate(out["metric"]) if m == "AdvantageP1" and out["game"][i] == "issiren"]
    assert len(rows) == 1
    v = out["value"][rows[0]]
    assert 0.0 <= v <= 1.0 and out["n"][rows[0]] == 60


def test_same_seed_same_figures_on_any_thread_count():
    a = stickdice.compare(["siryu-war"], threads=1, **SMALL)
    b = stickdice.compare(["siryu-war"], threads=2, **SMALL)
    assert a == b


def test_metrics_are_chosen_by_name():
    out = stickdice.compare(["issiren"], metrics=["DurationTurns"], **SMALL)
    assert set(out["metric"]) == {"DurationTurns"}


@pytest.mark.parametrize(
    "config, message",
    [
        ("issirn", "issiren"),
        ({"game": "issiren", "players": 5}, "5"),
        ({"game": "sig-el-oued", "options": {"no_such_option": True}}, "no_such_option"),
        ({"players": 2}, "game"),
    ],
)
def test_bad_configurations_are_refused_with_what_is_wrong(config, message):
    with pytest.raises(ValueError, match=message):
        stickdice.compare([config], **SMALL)


def test_unknown_metric_and_bad_type():
    with pytest.raises(ValueError, match="did you mean"):
        stickdice.compare(["issiren"], metrics=["DurationTurn"], **SMALL)
    with pytest.raises(TypeError):
        stickdice.compare([42], **SMALL)
