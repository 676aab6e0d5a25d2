"""Agents built from the command line's specs, stepping Python states."""

import random

import pytest

import norn
from conftest import random_action


def play(game, agents, seed=0, limit=400):
    """Plays a game with one agent per player (chance drawn at random)."""
    import random

    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and len(state.history()) < limit:
        if state.is_chance_node():
            random_action(state, rng)
        elif state.is_simultaneous_node():
            state.apply_actions(
                [agents[p].step(state, p) for p in range(state.num_players())]
            )
        else:
            state.apply_action(agents[state.current_player()].step(state))
    return state


def test_random_agents_play_every_game(game):
    agents = [norn.agent("random", game, seed=p) for p in range(game.num_players())]
    state = play(game, agents)
    assert len(state.history()) > 0


def test_an_agent_plays_the_same_game_for_the_same_seed():
    game = norn.load_game("hnefatafl", "ply-limit=40")
    first = play(game, [game.agent("mcts:iters=30", seed=s) for s in (1, 2)])
    second = play(game, [game.agent("mcts:iters=30", seed=s) for s in (1, 2)])
    assert first.history() == second.history()


def test_a_move_of_several_decisions_is_given_one_id_per_step():
    # A Thud troll that steps next to dwarfs chooses its captures in a
    # second decision; alpha-beta's move arrives over two steps.
    game = norn.load_game("thud")
    agent = game.agent("alphabeta:depth=1")
    state = game.new_initial_state()
    for _ in range(40):
        if state.is_terminal():
            break
        whole = agent.choose(state)
        assert whole
        for action in whole:
            state.apply_action(action)
        assert state.pending() == []


def test_presets_are_read_as_on_the_command_line():
    game = norn.load_game("hnefatafl")
    bot = norn.agent("alphabeta:preset=best,depth=1", game)
    assert "depth=1" in bot.configuration
    state = game.new_initial_state()
    assert bot.step(state) in state.legal_actions()


def test_an_agent_refuses_a_state_of_another_game():
    thud = norn.load_game("thud")
    bot = norn.agent("random", norn.load_game("hnefatafl"))
    with pytest.raises(ValueError):
        bot.step(thud.new_initial_state())


def position_before_a_win(game, seed):
    """The position before the last move of a seeded random game that its
    mover won at once, and the mover."""
    rng = random.Random(seed)
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            before, mover = state.clone(), state.current_player()
            random_action(state, rng)
        if state.returns()[mover] > 0:
            return before, mover


def test_alphabeta_gives_its_value_and_principal_variation():
    game = norn.load_game("hnefatafl")
    before, mover = position_before_a_win(game, 3)
    searcher = norn.agent("alphabeta:depth=3", game)
    assert searcher.last_search() is None
    action = searcher.step(before)
    record = searcher.last_search()
    # A win in one move is found and valued as a win for the mover.
    assert record["value"] > 0.99
    assert record["depth"] >= 1 and record["nodes"] > 0
    assert record["pv"][0] == before.action_to_string(action)
    after = before.clone()
    after.apply_action(action)
    assert after.is_terminal() and after.returns()[mover] > 0

    # From the start, the line is a legal line of the searched depth.
    state = game.new_initial_state()
    searcher.step(state)
    record = searcher.last_search()
    assert record["depth"] == 3 and len(record["pv"]) == 3
    assert -1 <= record["value"] <= 1
    for move in record["pv"]:
        state.apply_action(state.string_to_action(move))


def test_mcts_gives_its_iterations_and_the_chosen_moves_share():
    game = norn.load_game("thud")
    state = game.new_initial_state()
    searcher = norn.agent("mcts:iters=300", game, seed=4)
    action = searcher.step(state)
    record = searcher.last_search()
    assert record["iterations"] == 300
    assert 0 < record["visit_share"] <= 1
    assert record["pv"] == [state.action_to_string(action)]
    assert -1 <= record["value"] <= 1


def test_agents_that_do_not_search_have_no_search_record():
    game = norn.load_game("hnefatafl")
    agent = norn.agent("random", game)
    agent.step(game.new_initial_state())
    assert agent.last_search() is None


def lowest_id(state):
    """A Python policy: the lowest legal id."""
    return state.legal_actions()[0]


def test_python_callables_play_in_tournaments_under_their_names():
    summary = norn.tournament(
        "hnefatafl", [lowest_id, "random"], games=2, seed=3, max_plies=30, openings="start"
    )
    names = [agent["name"] for agent in summary["agents"]]
    assert "lowest_id" in names and "random" in names
    played = sum(
        agent["wins"] + agent["draws"] + agent["losses"]
        for agent in summary["agents"]
        if agent["name"] == "lowest_id"
    )
    assert played == 2
    # The same games as a Rust agent that plays the same moves would: the
    # callable is asked for every decision and its move is played.
    again = norn.tournament(
        "hnefatafl", [("first", lowest_id), "random"], games=2, seed=3, max_plies=30,
        openings="start",
    )
    assert again["overall"] == summary["overall"]


def test_a_failing_callable_forfeits_with_its_reason():
    def broken(state):
        raise RuntimeError("no idea")

    summary = norn.tournament(
        "hnefatafl", [broken, "random"], games=2, seed=1, max_plies=20, openings="start"
    )
    assert [f["agent"] for f in summary["forfeits"]] == ["broken", "broken"]
    assert all("RuntimeError: no idea" in f["reason"] for f in summary["forfeits"])
    broken_row = next(agent for agent in summary["agents"] if agent["name"] == "broken")
    assert broken_row["losses"] == 2


def test_an_illegal_choice_is_the_callables_forfeit():
    summary = norn.tournament(
        "hnefatafl", [("illegal", lambda state: 0), "random"], games=2, seed=1,
        max_plies=20, openings="start",
    )
    assert all("not legal" in f["reason"] for f in summary["forfeits"])
    assert {f["agent"] for f in summary["forfeits"]} == {"illegal"}


def test_matches_run_a_sequential_test_between_callables_and_agents():
    report = norn.match(
        "hnefatafl", "greedy", lowest_id, elo0=0, elo1=200, max_games=40, seed=2,
        max_plies=60, openings="random:4",
    )
    assert report["agents"] == ["greedy", "lowest_id"]
    assert report["games"] == report["wins"] + report["draws"] + report["losses"]
    assert report["games"] <= 40
    assert report["decision"] in ("accept-h0", "accept-h1", "continue")


def test_agents_take_openspiel_states_of_norn_games():
    pyspiel = pytest.importorskip("pyspiel")
    from norn import openspiel

    openspiel.register()
    spiel_game = pyspiel.load_game("norn_hnefatafl", {"rules": "ply-limit=20"})
    state = spiel_game.new_initial_state()
    bot = norn.agent("alphabeta:depth=1", state.inner.get_game())
    action = bot.step(state)
    assert action in state.legal_actions()
    with pytest.raises(TypeError, match="norn State"):
        bot.step("a1-a2")
