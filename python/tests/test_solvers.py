"""The exact solvers from Python, checked against independent facts:
known values of matrix games, the equilibrium conditions, exhaustive
search of small deals, and OpenSpiel's own value iteration."""

import random

import numpy as np
import pytest

import norn


def test_matrix_games_of_known_value():
    pennies = norn.solve_matrix([[1, -1], [-1, 1]])
    assert pennies["value"] == pytest.approx(0, abs=1e-9)
    assert pennies["row_strategy"] == pytest.approx([0.5, 0.5])
    rock_paper_scissors = norn.solve_matrix([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert rock_paper_scissors["value"] == pytest.approx(0, abs=1e-9)
    assert rock_paper_scissors["col_strategy"] == pytest.approx([1 / 3] * 3)
    # Solved by hand: the row player mixes 3/7 : 4/7, the column player
    # 2/7 : 5/7, and the row player gets 1/7.
    skewed = norn.solve_matrix([[3, -1], [-2, 1]])
    assert skewed["value"] == pytest.approx(1 / 7)
    assert skewed["row_strategy"] == pytest.approx([3 / 7, 4 / 7])
    assert skewed["col_strategy"] == pytest.approx([2 / 7, 5 / 7])


def test_random_matrix_games_are_solved_to_an_equilibrium():
    rng = np.random.default_rng(5)
    for _ in range(50):
        rows, cols = rng.integers(1, 7, size=2)
        payoffs = rng.integers(-5, 6, size=(rows, cols)).astype(float)
        solution = norn.solve_matrix(payoffs.tolist())
        row = np.array(solution["row_strategy"])
        col = np.array(solution["col_strategy"])
        # Neither player gains by a pure deviation.
        assert (row @ payoffs).min() == pytest.approx(solution["value"], abs=1e-7)
        assert (payoffs @ col).max() == pytest.approx(solution["value"], abs=1e-7)


def test_bad_matrices_are_refused():
    for payoffs in ([], [[]], [[1, 2], [3]], [[1, float("nan")]]):
        with pytest.raises(ValueError):
            norn.solve_matrix(payoffs)


# Small Fenrir's Path deals, some of which cannot be won.
SMALL_PATH = "colours=3,tiles-per-colour=2,sets=1,spacing=1,turn-order=fixed,wolf-sweeps=on"


def dealt(game, seed):
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        norn.apply_random_action(state, rng)
    return state


def can_win(state, seen):
    """Whether some sequence of the team's moves wins: exhaustive search."""
    if state.is_terminal():
        return state.returns()[0] > 0
    key = str(state)
    if key not in seen:
        seen[key] = False
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            if can_win(child, seen):
                seen[key] = True
                break
    return seen[key]


def test_fenrirs_path_deals_are_solved_as_exhaustive_search_finds():
    game = norn.load_game("fenrir-path", SMALL_PATH)
    verdicts = []
    for seed in range(30):
        state = dealt(game, seed)
        report = norn.solve(state)
        assert report["win"] == can_win(state, {}), f"deal {seed}"
        verdicts.append(report["win"])
        if report["win"]:
            for move in report["line"]:
                state.apply_action(state.string_to_action(move))
            assert state.is_terminal() and state.returns()[0] > 0
    assert 0 < sum(verdicts) < len(verdicts), "the deals should be mixed"


def test_the_objectives_are_bounded_within_a_budget():
    state = dealt(norn.load_game("fenrir-path"), 1)
    report = norn.solve(state, budget=20_000)
    assert report["win"]
    names = {entry["objective"] for entry in report["objectives"]}
    assert names == {"safety-margin", "shortest-win"}
    for entry in report["objectives"]:
        assert entry["lower"] <= entry["upper"]
        assert len(entry["line"]) > 0


@pytest.mark.parametrize("rounds", [1, 2])
def test_openspiel_value_iteration_on_nibelungen_gives_norn_solve_values(rounds):
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("cvxpy")
    from open_spiel.python.algorithms import get_all_states, value_iteration

    from norn import openspiel

    openspiel.register()
    # The game drawn after `rounds` rounds is what `norn solve --rounds`
    # solves: the game beyond counts as a draw.
    game = pyspiel.load_game("norn_nibelungen", {"rules": f"round-limit={rounds}"})
    values = value_iteration.value_iteration(game, depth_limit=-1, threshold=1e-9)
    states = get_all_states.get_all_states(game, -1, True, False, to_string=str)
    decided = 0
    for key, state in states.items():
        if not state.is_simultaneous_node():
            continue
        solved = norn.solve(state.inner, rounds=rounds)
        assert solved["value"] == pytest.approx(values[key], abs=1e-6), key
        decided += abs(solved["value"]) > 1e-6
    start = str(game.new_initial_state())
    assert norn.solve(norn.load_game("nibelungen").new_initial_state(), rounds=rounds)[
        "value"
    ] == pytest.approx(values[start], abs=1e-6)
    if rounds == 2:
        assert decided > 0, "some positions should not be worth a draw"


def test_bad_solves_are_refused():
    undealt = norn.load_game("fenrir-path").new_initial_state()
    nibelungen = norn.load_game("nibelungen").new_initial_state()
    refused = {
        "competing sides that take turns": (norn.load_game("hnefatafl").new_initial_state(), {}),
        "a deal under way": (undealt, {}),
        "rounds of a game without simultaneous moves": (dealt(norn.load_game("fenrir-path"), 1), {"rounds": 2}),
        "simultaneous moves without rounds": (nibelungen, {}),
        "tables saved by a depth-first solve": (nibelungen, {"rounds": 1, "out": "tables.bin"}),
        "a budget of a retrograde solve": (nibelungen, {"retrograde": True, "budget": 10}),
        "more states than the budget": (nibelungen, {"rounds": 3, "budget": 1000}),
    }
    for case, (state, arguments) in refused.items():
        with pytest.raises(ValueError):
            norn.solve(state, **arguments)
            pytest.fail(f"not refused: {case}")
