"""benchmarks/campaign_cpu.py --by-decision: the policies' CPU by kind of decision."""

from pathlib import Path

from script_files import load_script

from gwe_fast import load_scenario
from gwe_fast.games import driver
from gwe_fast.policies.registry import make_policy


def load():
    return load_script("benchmarks/campaign_cpu.py")


def test_by_decision_counts_every_decision_a_policy_answers_and_only_those():
    mod = load()
    kinds: dict = {}
    cpu = mod.campaign_cpu("kaisers_battle/historical", [0], "greedy", by_decision=kinds)
    assert len(cpu) == 1 and cpu[0] > 0
    # the same campaign again, counting the decisions as the game's own log records them
    sc = load_scenario("kaisers_battle/historical")
    drv = driver(sc.game)
    game = drv.new_game(sc, 0, 0, events=True,
                        policies={0: make_policy("greedy"), 1: make_policy("greedy")})
    drv.play(game)
    logged: dict = {}
    for e in game.events:
        if e[0] == "choice":
            logged[e[2]] = logged.get(e[2], 0) + 1
    # every decision asked through ``ask`` is one timed call; a secret choice (asked of both
    # sides at once, ``ask_secret``) is logged for each side, also when a side has one option
    # and is not asked
    secret = {"kb.artillery.counter_battery", "kb.air.allocate", "kb.air.interception"}
    assert {k: n for k, (n, _) in kinds.items() if k not in secret} == {
        k: n for k, n in logged.items() if k not in secret}
    assert all(0 < kinds[k][0] <= logged[k] for k in kinds.keys() & secret)
    assert len(kinds) > 10
    assert sum(s for _, s in kinds.values()) <= cpu[0]


def test_by_decision_leaves_a_random_player_alone():
    # a random player's picks are drawn without calling its policy: nothing to time
    kinds: dict = {}
    load().campaign_cpu("brusilov/historical", [0], "random", by_decision=kinds)
    assert kinds == {}


def test_the_table_lists_the_costliest_kind_first(capsys):
    load().print_by_decision({"a": [4, 0.001], "b": [2, 0.003]}, games=2, campaign_s=0.01)
    out = capsys.readouterr().out.splitlines()
    assert out[1].split()[0] == "b" and out[2].split()[0] == "a"
    assert out[1].split()[1:] == ["1", "1.5", "1500.0", "30.0%"]
    assert out[-1].split()[-1] == "40.0%"


def test_the_script_plays_the_packages_games_which_are_those_of_the_master_seed(monkeypatch):
    # gwe bench --instructions runs the package's module (python -m gwe_fast.campaign_cpu);
    # the script runs the same file: the counts and the times are of the same games
    import gwe_fast.campaign_cpu as shared

    mod = load()
    # (the same text: the package under test may be an installed copy of the tree's file)
    assert (Path(mod.campaign_cpu.__code__.co_filename).read_text()
            == Path(shared.campaign_cpu.__code__.co_filename).read_text())
    played = []

    def spy(game):
        real = driver(game)

        class Spy:
            def new_game(self, sc, seed, index, **kw):
                played.append((seed, index))
                return real.new_game(sc, seed, index, **kw)

            def play(self, g):
                return real.play(g)

        return Spy()

    monkeypatch.setattr(shared, "driver", spy)
    shared.main(["kaisers_battle/historical", "--games", "2", "--master-seed", "5"])
    assert played == [(5, shared.WARM_UP_GAME), (5, 0), (5, 1)]
