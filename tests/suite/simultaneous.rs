//! Simultaneous moves end to end, on a small game of secret bids: perft
//! counts joint moves, the play loop and tournaments play them and log them
//! as one entry, logs replay, and searchers that handle one player at a
//! time refuse them with an error instead of a wrong answer.

use crate::common::goofspiel::{Goofspiel, GoofspielRules, PrizeOrder};
use norn::agents::{Agent, AgentError, Decision, RandomAgent, build_agent, player_choices};
use norn::arena::winrate::play_out;
use norn::arena::{
    GameLine, Openings, PlayOptions, RunOptions, Shard, TournamentConfig, TournamentSummary,
    Unwatched, play_game, plies_text, replay_line, replay_plies, run_tournament,
};
use norn::core::{Game, MoveList, Notation, ParseError, Player, Ply, PlyText, Status};
use norn::search::{
    AlphaBeta, AlphaBetaConfig, CoopSolver, Ismcts, IsmctsConfig, Mcts, MctsConfig, perft,
    perft_divide,
};
use std::sync::atomic::AtomicBool;

fn goofspiel(cards: u8) -> Goofspiel {
    Goofspiel::new(GoofspielRules {
        cards,
        order: PrizeOrder::Descending,
    })
}

/// The number of ways both players can spend `n` cards over `plies` rounds.
fn joint_sequences(n: u64, plies: u64) -> u64 {
    (0..plies).map(|round| (n - round) * (n - round)).product()
}

#[test]
fn perft_counts_every_joint_move_as_one_ply() {
    for cards in 1..=5u8 {
        let start = goofspiel(cards);
        for depth in 0..=u32::from(cards) {
            assert_eq!(
                perft(&start, depth),
                joint_sequences(u64::from(cards), u64::from(depth)),
                "{cards} cards, depth {depth}"
            );
        }
    }
    let divided = perft_divide(&goofspiel(3), 2, 2).unwrap();
    assert_eq!(divided.len(), 9);
    assert!(divided.iter().all(|(ply, nodes)| {
        matches!(ply, Ply::Joint(joint) if joint.len() == 2) && *nodes == 4
    }));
}

/// Bids its highest card.
struct Highest {
    moves: MoveList<u8>,
}

impl Agent<Goofspiel> for Highest {
    fn spec(&self) -> &str {
        "highest"
    }

    fn decide(&mut self, state: &Goofspiel, player: Player) -> Result<Decision<u8>, AgentError> {
        player_choices(state, player, &mut self.moves)?;
        Ok(Decision::Play(*self.moves.iter().max().expect("a choice")))
    }
}

fn make_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<Goofspiel>>, ParseError> {
    match spec {
        "highest" => Ok(Box::new(Highest {
            moves: MoveList::new(),
        })),
        "random" => Ok(Box::new(RandomAgent::new(seed))),
        _ => Err(ParseError::new("agent spec", spec, "highest or random")),
    }
}

#[test]
fn the_play_loop_plays_joint_moves_and_the_highest_bidder_beats_a_mirror() {
    let start = goofspiel(4);
    let mut agents = vec![
        make_agent("highest", 0).unwrap(),
        make_agent("highest", 1).unwrap(),
    ];
    let game = play_game(&start, &mut agents, &PlayOptions::default()).unwrap();
    // Equal bids every round: every prize is tied away, a draw.
    assert_eq!(game.plies.len(), 4);
    assert!(
        game.plies
            .iter()
            .all(|ply| matches!(ply, Ply::Joint(joint) if joint[0] == joint[1]))
    );
    assert_eq!(game.outcome.payoffs.as_slice(), &[0.0, 0.0]);
    assert_eq!(
        plies_text(&start, &game.plies, game.chance_seed).unwrap()[0],
        PlyText::Joint(vec!["4".into(), "4".into()])
    );
}

#[test]
fn chance_events_during_play_come_from_the_seed() {
    let start = Goofspiel::new(GoofspielRules {
        cards: 8,
        order: PrizeOrder::Random,
    });
    let play = |chance_seed| {
        let mut agents = vec![
            make_agent("highest", 0).unwrap(),
            make_agent("random", 1).unwrap(),
        ];
        let options = PlayOptions {
            chance_seed,
            ..PlayOptions::default()
        };
        play_game(&start, &mut agents, &options).unwrap()
    };
    assert_eq!(play(5), play(5));
    // The prizes turn up in an order the seed draws, and the plies replay
    // with it.
    let prizes = |seed| {
        let game = play(seed);
        let mut prizes = Vec::new();
        replay_plies(&start, &game.plies, game.chance_seed, |before, _| {
            let text = before.position_text();
            let prize = text.split(" prize=").nth(1).unwrap();
            prizes.push(prize.split(' ').next().unwrap().to_string());
        })
        .unwrap();
        prizes
    };
    let orders: std::collections::HashSet<Vec<String>> = (0..6).map(prizes).collect();
    assert!(
        orders.len() > 1,
        "every seed turned the prizes up in one order"
    );
}

#[test]
fn a_tournament_logs_joint_plies_that_replay() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("simultaneous-tournament");
    let _ = std::fs::remove_dir_all(&dir);
    // Prizes in a random order: the chance events of play are drawn again
    // from each game's seed when its log is replayed.
    let rules = GoofspielRules {
        cards: 6,
        order: PrizeOrder::Random,
    };
    let config = TournamentConfig {
        game: Goofspiel::NAME.to_string(),
        rules: rules.to_string(),
        agents: vec!["highest".into(), "random".into()],
        games_per_pair: 20,
        seed: 3,
        max_plies: None,
        anchor: None,
        gauntlet: false,
        time_control: None,
        adjudication: None,
        openings: Openings::Start,
    };
    let stop = AtomicBool::new(false);
    let options = RunOptions {
        record_search: false,
        threads: 2,
        shard: Shard::ALL,
        out_dir: Some(dir.clone()),
        stop: &stop,
        progress: &Unwatched,
        repair: false,
        force_resume: false,
        max_forfeits: norn::arena::DEFAULT_MAX_FORFEITS,
    };
    let start = Goofspiel::new(rules);
    let result = run_tournament(&config, &start, &make_agent, &options).unwrap();
    assert_eq!(result.games.len(), 20);
    for game in &result.games {
        assert_eq!(game.plies, 6);
        assert!(
            game.moves
                .iter()
                .all(|ply| matches!(ply, PlyText::Joint(joint) if joint.len() == 2))
        );
        replay_line(&start, game).unwrap();
    }
    // A joint ply is one entry of the log: a list of the players' moves.
    let log = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    let first: GameLine = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert!(log.lines().next().unwrap().contains(r#""moves":[[""#));
    // A forged bid is refused on replay.
    let mut forged = first.clone();
    forged.moves[0] = PlyText::Joint(vec!["6".into(), "7".into()]);
    assert!(replay_line(&start, &forged).unwrap_err().contains("ply 1"));
    // The summary holds every game, six joint plies long.
    let summary = TournamentSummary::compute(&config, &result.games, false);
    let highest = &summary.agents[0];
    assert_eq!(highest.games, 20);
    assert_eq!(highest.wins + highest.draws + highest.losses, 20);
    let length = highest.length.as_ref().unwrap();
    assert_eq!((length.min, length.max), (6, 6));
}

#[test]
fn searchers_of_one_player_at_a_time_refuse_simultaneous_choices() {
    let start = goofspiel(3);
    let error = AlphaBeta::new(AlphaBetaConfig::default())
        .search(&start)
        .unwrap_err();
    assert!(error.to_string().contains("simultaneous"), "{error}");
    let error = Mcts::new(MctsConfig::default(), 1)
        .unwrap()
        .search(&start)
        .unwrap_err();
    assert!(error.to_string().contains("simultaneous"), "{error}");
    let error = Ismcts::<Goofspiel>::new(IsmctsConfig::default(), 1)
        .search_state(&start)
        .unwrap_err();
    assert!(error.to_string().contains("simultaneous"), "{error}");
    let error = CoopSolver::<Goofspiel>::new().solve(&start).unwrap_err();
    assert!(error.to_string().contains("simultaneous"), "{error}");
    // The agents built on them, and those that look one move ahead, say so
    // when asked to choose.
    for spec in ["alphabeta:depth=2", "mcts:iters=10", "greedy"] {
        let refusal = build_agent::<Goofspiel>(spec, 0)
            .err()
            .map(|e| e.to_string());
        assert!(
            refusal
                .as_deref()
                .is_some_and(|text| text.contains("simultaneous")),
            "{spec}: {refusal:?}"
        );
    }
    let mut random = build_agent::<Goofspiel>("random", 0).unwrap();
    assert!(matches!(
        random.decide(&start, 1),
        Ok(Decision::Play(1..=3))
    ));
    // Playing a team's deal out stops with an error, not a panic.
    let mut agent: Box<dyn Agent<Goofspiel>> = Box::new(RandomAgent::new(1));
    assert!(play_out(agent.as_mut(), &start).is_err());
    assert_eq!(start.status(), Status::Simultaneous);
}
