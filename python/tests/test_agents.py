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
