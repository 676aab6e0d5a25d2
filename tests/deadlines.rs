//! Time-limited agents (`ms=`, which `alphabeta` and `mcts` take) return
//! within a few milliseconds of their budget: from the first move of a fresh
//! agent, with one and two threads, for every game of the registry that the
//! searcher plays, and through the engine protocol; the games' presets
//! (`preset=best`) and every option that adds work to an iteration too.
//!
//! `cargo test --release --test deadlines -- --ignored --nocapture` prints
//! the table of bench-results/deadlines.md.

use norn::agents::Decision;
use norn::core::{Ply, Status, resolve_chance, rng_from_seed};
use norn::registry::{self, GameVisitor, Registered};
use norn::search::{AlphaBeta, AlphaBetaConfig, Mcts, MctsConfig, Parallelism};
use std::time::{Duration, Instant};

/// How late a decision may come: a few milliseconds for the last node or
/// iteration and the threads to stop, plus the scheduler's delays on a
/// loaded 2-core machine. A searcher that reads its clock too rarely (every
/// hundred thousand alpha-beta nodes, every few thousand MCTS iterations) or
/// that spends long before starting its clock overruns by more.
const TOLERANCE: Duration = Duration::from_millis(25);

/// The time-limited specs, without their time.
const TIMED_SPECS: [&str; 5] = [
    "alphabeta",
    "alphabeta:threads=2",
    "mcts",
    "mcts:threads=2",
    "mcts:threads=2,parallel=tree",
];

/// MCTS with the options that add work to an iteration, each to excess:
/// leaf searches (`leaf-depth`, 3 plies from every leaf, and from every
/// child that `expand=all` builds), the checks of the root moves
/// (`check`), greedy playouts to the end of the game, evaluated children,
/// widening and bias. Tree reuse, on by default, cuts the kept tree at
/// every decision after the first.
const HEAVY_ITERATION_SPECS: [&str; 5] = [
    "mcts:preset=best,leaf-depth=3",
    "mcts:leaf-depth=3,threads=2,parallel=tree",
    "mcts:check=4,leaf-depth=1",
    "mcts:playout=none,playout-eps=0.5",
    "mcts:expand=all,widen=2,bias=1,minimax=0.5",
];

/// How long each decision took beyond its budget.
type Overruns = Vec<Duration>;

/// How an agent is asked for its decisions.
#[derive(Clone, Copy, PartialEq)]
enum Asked {
    /// `Agent::decide`, from the start of a game, the agent playing every side.
    Directly,
    /// `generate_move` in the game's engine session, from the start.
    ByEngine,
}

/// The overruns of the first `decisions` decisions of a fresh agent built
/// from `spec` with `budget`; `None` for a game the agent cannot play or,
/// asked by the engine, a game without an engine protocol.
struct Measure {
    spec: String,
    budget: Duration,
    decisions: usize,
    asked: Asked,
}

impl Measure {
    fn new(spec: &str, budget_ms: u64, decisions: usize, asked: Asked) -> Self {
        let separator = if spec.contains(':') { ',' } else { ':' };
        Measure {
            spec: format!("{spec}{separator}ms={budget_ms}"),
            budget: Duration::from_millis(budget_ms),
            decisions,
            asked,
        }
    }

    fn overrun(&self, started: Instant) -> Duration {
        started.elapsed().saturating_sub(self.budget)
    }

    fn directly<G: Registered>(&self) -> Option<Overruns> {
        let mut agent = registry::build_agent::<G>(&self.spec, 7).ok()?;
        let mut state = G::new(G::Rules::default());
        let mut chance = rng_from_seed(7);
        let mut overruns = Vec::new();
        while overruns.len() < self.decisions {
            match state.status() {
                Status::Chance => {
                    resolve_chance(&mut state, &mut chance);
                }
                Status::ToMove(player) => {
                    let started = Instant::now();
                    let decision = agent.decide(&state, player).expect("the agent decides");
                    overruns.push(self.overrun(started));
                    let Decision::Play(mv) = decision else { break };
                    agent.observe(&state, &Ply::Move(mv));
                    state.play(mv);
                }
                Status::Over(_) | Status::Simultaneous => break,
            }
        }
        Some(overruns)
    }

    fn by_engine<G: Registered>(&self) -> Option<Overruns> {
        let agent = registry::build_agent::<G>(&self.spec, 7).ok()?;
        // The Hnefatafl Text Protocol's `generate_move` is what this asks;
        // the tafl family's OpenTafl protocol has deadlines of its own,
        // checked by its test host.
        let protocol = G::engine_protocols()
            .into_iter()
            .find(|protocol| protocol.name == "htp")?;
        let mut session = (protocol.session)(G::Rules::default(), agent);
        let overruns = (0..self.decisions)
            .map(|_| {
                let started = Instant::now();
                let reply = session.answer("generate_move").unwrap();
                assert!(reply.starts_with("= "), "{}: {reply}", G::NAME);
                self.overrun(started)
            })
            .collect();
        Some(overruns)
    }
}

impl GameVisitor for Measure {
    type Output = Option<(&'static str, Overruns)>;

    fn visit<G: Registered>(&mut self) -> Self::Output {
        let overruns = match self.asked {
            Asked::Directly => self.directly::<G>(),
            Asked::ByEngine => self.by_engine::<G>(),
        };
        overruns.map(|overruns| (G::NAME, overruns))
    }
}

/// Asserts that no decision of `measure` overruns by more than
/// [`TOLERANCE`], in every game it applies to (at least one). A game that
/// overruns is measured once more, so that a moment of heavy load on a
/// shared machine does not fail the test, while a searcher that checks its
/// clock too rarely overruns both times.
fn assert_deadlines_kept(mut measure: Measure) {
    let measured = registry::visit_all(&mut measure);
    assert!(measured.iter().any(Option::is_some), "{}", measure.spec);
    for (game, overruns) in measured.into_iter().flatten() {
        if overruns.iter().all(|&overrun| overrun <= TOLERANCE) {
            continue;
        }
        let (_, again) = registry::visit(game, &mut measure)
            .unwrap()
            .expect("the game was measured before");
        let worst = again.iter().max().unwrap();
        assert!(
            *worst <= TOLERANCE,
            "{} on {game} overran by {worst:?} (first measure: {overruns:?})",
            measure.spec
        );
    }
}

#[test]
fn time_limited_agents_keep_their_deadlines() {
    for spec in TIMED_SPECS {
        assert_deadlines_kept(Measure::new(spec, 50, 3, Asked::Directly));
    }
}

#[test]
fn time_limited_agents_keep_their_deadlines_through_the_engine_protocol() {
    for spec in ["alphabeta:threads=2", "mcts:threads=2"] {
        assert_deadlines_kept(Measure::new(spec, 50, 3, Asked::ByEngine));
    }
}

/// `preset=best` of every game that has one, as `norn engine` plays it
/// where the game has an engine protocol: the cut of the tree kept from
/// the move before runs inside the time (at 300 ms a move, a tree cut
/// outside it made the replies up to 51 ms late).
#[test]
fn presets_keep_their_deadlines() {
    for kind in ["alphabeta", "mcts"] {
        let spec = format!("{kind}:preset=best");
        assert_deadlines_kept(Measure::new(&spec, 100, 2, Asked::Directly));
        assert_deadlines_kept(Measure::new(&spec, 300, 3, Asked::ByEngine));
    }
}

/// Every option that adds work to an iteration, on every game that takes
/// it: leaf searches 3 plies deep took seconds past a 100 ms limit.
#[test]
fn options_that_add_work_to_an_iteration_keep_the_deadline() {
    for spec in HEAVY_ITERATION_SPECS {
        assert_deadlines_kept(Measure::new(spec, 50, 2, Asked::Directly));
    }
}

/// The start of a game under its default rules, its deal (if any) made.
fn first_position<G: Registered>() -> G {
    let mut state = G::new(G::Rules::default());
    resolve_chance(&mut state, &mut rng_from_seed(1));
    state
}

#[test]
fn a_time_too_long_for_the_clock_is_no_limit() {
    struct EndlessTime;
    impl GameVisitor for EndlessTime {
        type Output = ();
        fn visit<G: Registered>(&mut self) {
            let state = first_position::<G>();
            if G::build_agent("alphabeta", 0).is_ok() {
                let config = AlphaBetaConfig {
                    depth: Some(2),
                    time: Some(Duration::MAX),
                    ..AlphaBetaConfig::default()
                };
                let result = AlphaBeta::new(config).search(&state).unwrap();
                assert_eq!(result.depth, 2, "{}", G::NAME);
            }
            if G::build_agent("mcts", 0).is_ok() {
                let config = MctsConfig {
                    iterations: Some(50),
                    time: Some(Duration::MAX),
                    ..MctsConfig::default()
                };
                let result = Mcts::new(config, 1).unwrap().search(&state).unwrap();
                assert_eq!(result.iterations, 50, "{}", G::NAME);
            }
        }
    }
    registry::visit_all(&mut EndlessTime);
}

/// The shortest time a configuration may give (a millisecond: no time at
/// all is refused, by the spec parser and by `Mcts::new` alike) still
/// gives a move, with at least one iteration, whether the threads share a
/// tree or not.
#[test]
fn an_mcts_search_with_the_shortest_time_still_chooses_a_move() {
    struct NoTime;
    impl GameVisitor for NoTime {
        type Output = ();
        fn visit<G: Registered>(&mut self) {
            if G::build_agent("mcts", 0).is_err() {
                return;
            }
            let state = first_position::<G>();
            for (threads, parallelism) in [(1, Parallelism::Root), (2, Parallelism::Tree)] {
                let config = MctsConfig {
                    iterations: None,
                    time: Some(Duration::from_millis(1)),
                    threads,
                    parallelism,
                    ..MctsConfig::default()
                };
                let result = Mcts::new(config, 1).unwrap().search(&state).unwrap();
                assert!(result.best_move.is_some(), "{}", G::NAME);
                assert!(result.iterations >= 1);
            }
        }
    }
    registry::visit_all(&mut NoTime);
}

/// The overruns of every timed spec at 50 and 200 ms, per game, as the
/// rows of a markdown table.
#[test]
#[ignore = "a measurement for bench-results/deadlines.md, about a minute"]
fn overrun_table() {
    println!("| spec | ms | game | decisions | max overrun | mean overrun |");
    println!("|---|--:|---|--:|--:|--:|");
    for asked in [Asked::Directly, Asked::ByEngine] {
        for spec in TIMED_SPECS {
            for budget in [50, 200] {
                let mut measure = Measure::new(spec, budget, 10, asked);
                for (game, overruns) in registry::visit_all(&mut measure).into_iter().flatten() {
                    let max = overruns.iter().max().unwrap();
                    let mean = overruns.iter().sum::<Duration>() / overruns.len() as u32;
                    let game = match asked {
                        Asked::Directly => game.to_string(),
                        Asked::ByEngine => format!("{game} (engine)"),
                    };
                    println!(
                        "| `{spec}` | {budget} | {game} | {} | {:.2} ms | {:.2} ms |",
                        overruns.len(),
                        max.as_secs_f64() * 1e3,
                        mean.as_secs_f64() * 1e3
                    );
                }
            }
        }
    }
}

/// Plays the first legal move after a fixed wait: an agent whose clock
/// use is known in advance.
struct Slow {
    wait: Duration,
}

impl norn::agents::Agent<norn::games::hnefatafl::Hnefatafl> for Slow {
    fn spec(&self) -> &str {
        "slow"
    }

    fn decide(
        &mut self,
        state: &norn::games::hnefatafl::Hnefatafl,
        _player: usize,
    ) -> Result<Decision<norn::games::hnefatafl::HnefataflMove>, norn::agents::AgentError> {
        std::thread::sleep(self.wait);
        let mut moves = norn::core::MoveList::new();
        norn::core::Game::legal_moves(state, &mut moves);
        Ok(Decision::Play(moves[0]))
    }
}

#[test]
fn a_side_whose_clock_runs_out_loses_on_time_at_the_right_move() {
    use norn::arena::{PlayOptions, TIME_REASON, TimeControl, play_game};
    use norn::core::Game;
    use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
    // The attackers wait 0.2 s a move on a clock of 0.45 s plus 0.1 s a
    // move: 0.45, 0.35, 0.25 and then 0.15 s before their 1st to 4th
    // moves, so the flag falls during the 4th (without the increment it
    // would fall during the 3rd). The scheduler may add up to 16 ms a move
    // before the 3rd move's 0.25 s is short.
    let start = Hnefatafl::new(HnefataflRules::default());
    let mut agents: Vec<Box<dyn norn::agents::Agent<Hnefatafl>>> = vec![
        Box::new(Slow {
            wait: Duration::from_millis(200),
        }),
        registry::build_agent::<Hnefatafl>("random", 1).unwrap(),
    ];
    let options = PlayOptions {
        clock: Some("0.45+0.1".parse::<TimeControl>().unwrap()),
        record_search: true,
        ..PlayOptions::default()
    };
    let game = play_game(&start, &mut agents, &options).unwrap();
    assert_eq!(game.outcome.reason, TIME_REASON);
    assert_eq!(game.outcome.payoffs.as_slice(), [-1.0, 1.0]);
    // Three moves of each side, and the attackers' fourth never came.
    assert_eq!(game.plies.len(), 6);
    assert_eq!(game.decisions.len(), 6);
    let waited: Vec<f64> = game
        .decisions
        .iter()
        .step_by(2)
        .map(|ply| ply[0].seconds)
        .collect();
    assert!(waited.iter().all(|&seconds| seconds >= 0.2), "{waited:?}");
    // The same game without a clock goes on.
    let unclocked = play_game(
        &start,
        &mut agents,
        &PlayOptions {
            max_plies: Some(8),
            ..PlayOptions::default()
        },
    )
    .unwrap();
    assert_eq!(unclocked.plies.len(), 8);
}

#[test]
fn an_agent_with_a_time_limit_spends_its_clock() {
    use norn::arena::{PlayOptions, TIME_REASON, play_game};
    use norn::core::Game;
    use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
    // 2 s a side and 20 ms a move: alpha-beta told to search 1 s a move
    // (ms=1000) searches a share of its clock instead and never loses on
    // time in 16 plies (2 s would be gone by its third move at 1 s each).
    let start = Hnefatafl::new(HnefataflRules::default());
    let mut agents: Vec<Box<dyn norn::agents::Agent<Hnefatafl>>> = vec![
        registry::build_agent::<Hnefatafl>("alphabeta:ms=1000", 1).unwrap(),
        registry::build_agent::<Hnefatafl>("random", 2).unwrap(),
    ];
    let options = PlayOptions {
        clock: Some("2+0.02".parse().unwrap()),
        max_plies: Some(16),
        record_search: true,
        ..PlayOptions::default()
    };
    let game = play_game(&start, &mut agents, &options).unwrap();
    assert_ne!(game.outcome.reason, TIME_REASON);
    let spent: f64 = game
        .decisions
        .iter()
        .step_by(2)
        .map(|ply| ply[0].seconds)
        .sum();
    // Each move takes about a thirtieth of what is left plus most of the
    // increment: well under the 2 s and the 8 x 20 ms gained, yet searched.
    assert!(spent > 0.2 && spent < 1.5, "{spent} s");
}
