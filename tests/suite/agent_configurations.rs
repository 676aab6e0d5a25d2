//! An agent's configuration (what a run records in `config.json`) is its
//! full spec: every option written out, presets and the evaluation
//! resolved, and it builds the same agent again.

use norn::agents::{self, AGENT_KINDS, Decision};
use norn::core::Game;
use norn::games::hnefatafl::Hnefatafl;
use norn::registry::{self, GameVisitor, Registered};

/// Specs of every built-in kind, with defaults and with options set; a
/// game refuses the kinds it cannot be played by.
const SPECS: &[&str] = &[
    "alphabeta",
    "alphabeta:ms=50",
    "alphabeta:nodes=500,tt=1,threads=2",
    "alphabeta:preset=best,depth=2",
    "mcts",
    "mcts:ms=20,iters=30",
    "mcts:ms=20",
    "mcts:iters=30,playout=none,playout-eps=0.1,widen=2,widen-exp=0.25,check=1",
    "mcts:iters=30,leaf-depth=1,tempo=0.02,bias=2,minimax=0.5",
    "mcts:preset=best,iters=30",
    "ismcts:iters=30",
    "ismcts:iters=30,widen=off",
    "ismcts:iters=30,widen-exp=0.3,playout=random,score=win",
    "smmcts:iters=30,select=rm,gamma=0.2,trees=2,playout=4",
    "equilibrium:rounds=1",
    "counting",
    "open-hand:iters=30,exact=0",
];

struct RoundTrip {
    built: usize,
}

impl GameVisitor for RoundTrip {
    type Output = ();

    fn visit<G: Registered>(&mut self) {
        let kinds = AGENT_KINDS.iter().copied();
        for spec in kinds.chain(SPECS.iter().copied()) {
            let Ok(agent) = registry::build_agent::<G>(spec, 3) else {
                continue;
            };
            let configuration = agent.configuration();
            let again = registry::build_agent::<G>(&configuration, 3).unwrap_or_else(|error| {
                panic!("{}: `{spec}` recorded `{configuration}`: {error}", G::NAME)
            });
            assert_eq!(
                again.configuration(),
                configuration,
                "{}: `{spec}`",
                G::NAME
            );
            self.built += 1;
        }
    }
}

#[test]
fn every_agent_builds_again_from_its_configuration() {
    let mut round_trip = RoundTrip { built: 0 };
    registry::visit_all(&mut round_trip);
    // Every kind builds on some game, most options on several.
    assert!(round_trip.built >= 40, "{}", round_trip.built);
}

fn configuration(spec: &str) -> String {
    registry::build_agent::<Hnefatafl>(spec, 1)
        .unwrap()
        .configuration()
}

#[test]
fn the_configuration_writes_every_option_and_names_the_evaluation() {
    assert_eq!(
        configuration("mcts:iters=5"),
        "mcts:iters=5,c=1,threads=1,parallel=root,playout=10,playout-eps=off,\
         nodes=1000000,reuse=on,solver=on,minimax=0,bias=0,widen=off,expand=one,\
         pick=visits,check=0,eval=hand,leaf-depth=0,tempo=0"
    );
    assert_eq!(
        configuration("alphabeta:ms=100"),
        "alphabeta:ms=100,tt=16,threads=1,eval=hand"
    );
    // A preset and the game's own evaluation are recorded apart.
    assert_eq!(
        configuration("alphabeta:preset=best,depth=2"),
        "alphabeta:depth=2,tt=16,threads=1,eval=tuned"
    );
    assert_ne!(
        configuration("alphabeta:preset=best,depth=2"),
        configuration("alphabeta:depth=2,eval=hand")
    );
    assert!(configuration("mcts:preset=best").contains(",tempo=0.024"));
    // Spelled in other words, the same agent is recorded the same.
    assert_eq!(
        configuration("alphabeta:depth=4"),
        configuration("alphabeta:eval=hand")
    );
}

#[test]
fn an_agent_built_from_its_configuration_plays_the_same_moves() {
    let start = Hnefatafl::new(Default::default());
    for spec in ["mcts:iters=200", "alphabeta:depth=2,tt=1"] {
        let mut agent = registry::build_agent::<Hnefatafl>(spec, 5).unwrap();
        let mut again = registry::build_agent::<Hnefatafl>(&agent.configuration(), 5).unwrap();
        let mut state = start.clone();
        for _ in 0..6 {
            let player = state.status().player_to_move().unwrap();
            let chosen = agent.decide(&state, player).unwrap();
            assert_eq!(chosen, again.decide(&state, player).unwrap(), "{spec}");
            let Decision::Play(mv) = chosen else {
                panic!("{spec} resigned");
            };
            state.play(mv);
        }
    }
}

#[test]
fn the_library_builder_reads_presets_as_the_registry_does() {
    for spec in ["mcts:preset=best,iters=20", "alphabeta:preset=best,depth=1"] {
        let direct = agents::build_agent::<Hnefatafl>(spec, 2).unwrap();
        let registered = registry::build_agent::<Hnefatafl>(spec, 2).unwrap();
        assert_eq!(direct.configuration(), registered.configuration(), "{spec}");
    }
    let refused = agents::build_agent::<Hnefatafl>("greedy:preset=best", 2)
        .err()
        .expect("greedy has no preset")
        .to_string();
    assert!(refused.contains("presets: alphabeta, mcts"), "{refused}");
}

#[test]
fn only_the_open_hand_reference_sees_hidden_information() {
    use norn::games::fenrir_cards::FenrirCards;
    for (spec, sees) in [
        ("open-hand:iters=10", true),
        ("ismcts:iters=10", false),
        ("counting", false),
        ("random", false),
    ] {
        let agent = registry::build_agent::<FenrirCards>(spec, 1).unwrap();
        assert_eq!(agent.sees_hidden_information(), sees, "{spec}");
    }
    let agent = registry::build_agent::<Hnefatafl>("mcts:iters=10", 1).unwrap();
    assert!(!agent.sees_hidden_information());
}
