//! MCTS keeps one payoff per player, so it also plays one-player
//! (cooperative) games; here a small puzzle whose winning moves are known.

use norn::core::{
    Configurable, Declared, Evaluate, Game, Kind, MoveList, Outcome, ParseError, Payoffs, Player,
    RulesOptions, Scoring, Status, Value, read_options, write_options,
};
use norn::search::{Mcts, MctsConfig};
use std::str::FromStr;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Target(u32);

impl RulesOptions for Target {}

impl Configurable for Target {
    const WHAT: &'static str = "rules";
    const OPTIONS: &'static [Declared<Self>] = &[Declared {
        key: "target",
        kind: Kind::Whole { min: 1, max: 1_000 },
        help: "the total to hit",
        get: |target| Value::Whole(target.0.into()),
        set: |target, value| {
            target.0 = value.whole() as u32;
            Ok(())
        },
    }];
}

impl FromStr for Target {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Self, ParseError> {
        read_options(text)
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&write_options(self))
    }
}

/// One player adds 1, 2 or 3 to a running total and wins by hitting the
/// target exactly; passing it loses.
#[derive(Clone, Debug, PartialEq)]
struct Countdown {
    target: Target,
    total: u32,
    ply: u32,
}

impl Game for Countdown {
    type Move = u32;
    type Rules = Target;
    const NAME: &'static str = "countdown";
    const SCORING: Scoring = Scoring::Team;

    fn new(rules: Target) -> Self {
        Countdown {
            target: rules,
            total: 0,
            ply: 0,
        }
    }

    fn rules(&self) -> &Target {
        &self.target
    }

    fn num_players(&self) -> usize {
        1
    }

    fn status(&self) -> Status {
        if self.total < self.target.0 {
            return Status::ToMove(0);
        }
        let won = self.total == self.target.0;
        Status::Over(Outcome {
            payoffs: Payoffs::shared(1, if won { 1.0 } else { 0.0 }),
            reason: if won { "hit" } else { "overshot" },
        })
    }

    fn legal_moves(&self, moves: &mut MoveList<u32>) {
        moves.clear();
        if self.total < self.target.0 {
            moves.extend([1, 2, 3]);
        }
    }

    fn play(&mut self, mv: u32) {
        self.total += mv;
        self.ply += 1;
    }

    fn hash(&self) -> u64 {
        u64::from(self.total)
    }

    fn payoff_range(&self) -> (f64, f64) {
        (0.0, 1.0)
    }

    fn ply(&self) -> u32 {
        self.ply
    }
}

impl Evaluate for Countdown {
    fn evaluate(&self, player: Player) -> f64 {
        match self.status() {
            Status::Over(outcome) => outcome.payoffs.get(player),
            _ => 0.5,
        }
    }
}

#[test]
fn mcts_hits_the_target_in_a_one_player_game() {
    for total in 0..10 {
        let state = Countdown {
            target: Target(10),
            total,
            ply: 0,
        };
        let config = MctsConfig {
            iterations: Some(400),
            playout_plies: None,
            ..MctsConfig::default()
        };
        let result = Mcts::new(config, u64::from(total))
            .unwrap()
            .search(&state)
            .unwrap();
        let mv = result.best_move.unwrap();
        assert!(total + mv <= 10, "from {total}, {mv} overshoots");
        if total >= 7 {
            assert_eq!(total + mv, 10, "from {total}, {mv} misses a direct hit");
        }
    }
}
