//! What an evaluator must know of the game it evaluates ([`GameShape`]),
//! and how it lays out the values it gives ([`ValueLayout`]): one
//! vocabulary for the search, the networks of [`crate::net`], the Python
//! evaluators and the self-play samples.

use crate::core::{Capabilities, Encoding, Game, MAX_PLAYERS, Player, Scoring};
use serde::{Deserialize, Serialize};
use std::fmt;

/// How an evaluator lays out the values it gives for one position. Every
/// value is a payoff scaled from the game's payoff range to `[-1, 1]` (the
/// lowest payoff to -1, the highest to 1), as a network's `tanh` gives it.
///
/// In files and messages the layouts are written `to-move`, `team` and
/// `per-player` (JSON: `"to-move"`, `"team"`, `{"per-player": n}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ValueLayout {
    /// One value: the payoff of the player to move, whose observation the
    /// evaluator reads (the other player's is its negation): two sides
    /// against each other, scored by win and loss or by a margin.
    ToMove,
    /// One value: the payoff the team shares, the same for every player
    /// (cooperative games).
    Team,
    /// One value per player, player 0 first: any game.
    PerPlayer(usize),
}

impl ValueLayout {
    /// The values per position.
    pub fn width(self) -> usize {
        match self {
            ValueLayout::ToMove | ValueLayout::Team => 1,
            ValueLayout::PerPlayer(players) => players,
        }
    }

    /// The layout that fits game `G` with `players` players
    /// ([`of_scoring`](Self::of_scoring)).
    pub fn of_game<G: Game>(players: usize) -> ValueLayout {
        ValueLayout::of_scoring(Capabilities::of::<G>().scoring, players)
    }

    /// A game's own layout: one value for the player to move in a game of
    /// two competing sides, one for the team in a cooperative game, one
    /// per player otherwise.
    pub fn of_scoring(scoring: Scoring, players: usize) -> ValueLayout {
        match scoring {
            Scoring::WinLoss | Scoring::Margin if players == 2 => ValueLayout::ToMove,
            Scoring::Team => ValueLayout::Team,
            _ => ValueLayout::PerPlayer(players),
        }
    }

    /// Whether a game of `players` players scored by `scoring` can be
    /// given its values in this layout: its own
    /// ([`of_scoring`](Self::of_scoring)) or one value per player.
    pub fn fits(self, scoring: Scoring, players: usize) -> bool {
        self == ValueLayout::of_scoring(scoring, players) || self == ValueLayout::PerPlayer(players)
    }

    /// The name the layout is written by in files and messages:
    /// `to-move`, `team` or `per-player`.
    pub fn name(self) -> &'static str {
        match self {
            ValueLayout::ToMove => "to-move",
            ValueLayout::Team => "team",
            ValueLayout::PerPlayer(_) => "per-player",
        }
    }

    /// Every player's value (the first `players` entries) from `values`,
    /// this layout's values for a position where `mover` is to move: how
    /// the search reads an evaluator's answer.
    pub fn spread(self, values: &[f32], mover: Player, players: usize) -> [f64; MAX_PLAYERS] {
        let mut spread = [0.0; MAX_PLAYERS];
        let players = players.min(MAX_PLAYERS);
        match self {
            ValueLayout::ToMove => {
                let value = f64::from(values[0]);
                for (player, slot) in spread.iter_mut().enumerate().take(players) {
                    *slot = if player == mover { value } else { -value };
                }
            }
            ValueLayout::Team => spread[..players].fill(f64::from(values[0])),
            ValueLayout::PerPlayer(_) => {
                for (slot, &value) in spread.iter_mut().zip(values).take(players) {
                    *slot = f64::from(value);
                }
            }
        }
        spread
    }

    /// This layout's values for a position where `mover` is to move, from
    /// every player's value (`values`, scaled to `[-1, 1]`), written into
    /// `out` (as long as [`width`](Self::width)): the inverse of
    /// [`spread`](Self::spread), which training targets are written with.
    pub fn gather(self, values: &[f64], mover: Player, out: &mut [f32]) {
        match self {
            ValueLayout::ToMove => out[0] = values[mover] as f32,
            ValueLayout::Team => out[0] = values[0] as f32,
            ValueLayout::PerPlayer(_) => {
                for (slot, &value) in out.iter_mut().zip(values) {
                    *slot = value as f32;
                }
            }
        }
    }
}

impl fmt::Display for ValueLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueLayout::PerPlayer(players) => write!(f, "per-player ({players} values)"),
            other => f.write_str(other.name()),
        }
    }
}

/// What an evaluator must know of a game to answer for it: its name and
/// rules, the shape of its observations, its action space, its players and
/// what their payoffs mean. The search gives it to
/// [`TensorEvaluator::check_game`](super::TensorEvaluator::check_game)
/// before it starts, so that a network made for another game, other rules
/// or other shapes is refused with a sentence rather than misread.
#[derive(Clone, Debug, PartialEq)]
pub struct GameShape {
    /// The game's name in the registry.
    pub name: String,
    /// The rules, every option written out.
    pub rules: String,
    /// The shape of an observation tensor.
    pub observation_shape: Vec<usize>,
    /// How many action ids the game uses
    /// ([`Encoding::num_actions`](crate::core::Encoding::num_actions)).
    pub num_actions: usize,
    /// How many players the game has.
    pub num_players: usize,
    /// What the payoffs mean.
    pub scoring: Scoring,
    /// The lowest and highest payoff a player can get.
    pub payoff_range: (f64, f64),
}

impl GameShape {
    /// The shape of the game `state` is a position of.
    pub fn of_state<G: Encoding>(state: &G) -> GameShape {
        let rules = state.rules();
        GameShape {
            name: G::NAME.to_string(),
            rules: rules.to_string(),
            observation_shape: G::observation_shape(rules),
            num_actions: G::num_actions(rules),
            num_players: state.num_players(),
            scoring: G::SCORING,
            payoff_range: state.payoff_range(),
        }
    }

    /// The shape of game `G` under `rules`.
    pub fn of_game<G: Encoding>(rules: &G::Rules) -> GameShape {
        GameShape::of_state(&G::new(rules.clone()))
    }

    /// The game's own value layout ([`ValueLayout::of_scoring`]).
    pub fn value_layout(&self) -> ValueLayout {
        ValueLayout::of_scoring(self.scoring, self.num_players)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spreading_reads_back_what_gathering_wrote() {
        let players = [0.5, -0.25, 1.0];
        for (layout, count) in [
            (ValueLayout::ToMove, 2),
            (ValueLayout::Team, 3),
            (ValueLayout::PerPlayer(3), 3),
        ] {
            // A two-sided game's values are each other's negations, a
            // team's all the same.
            let values: Vec<f64> = match layout {
                ValueLayout::ToMove => vec![0.5, -0.5],
                ValueLayout::Team => vec![0.5; 3],
                ValueLayout::PerPlayer(_) => players.to_vec(),
            };
            for mover in 0..count {
                let mut out = vec![0.0; layout.width()];
                layout.gather(&values, mover, &mut out);
                let spread = layout.spread(&out, mover, count);
                assert_eq!(&spread[..count], &values[..], "{layout} for {mover}");
            }
        }
        // The player to move reads its own payoff; the other its negation.
        let mut out = [0.0];
        ValueLayout::ToMove.gather(&[-0.2, 0.2], 1, &mut out);
        assert_eq!(out, [0.2]);
    }

    #[test]
    fn a_game_takes_its_own_layout_or_one_value_per_player() {
        for (scoring, players, own) in [
            (Scoring::WinLoss, 2, ValueLayout::ToMove),
            (Scoring::Margin, 2, ValueLayout::ToMove),
            (Scoring::Team, 3, ValueLayout::Team),
            (Scoring::WinLoss, 3, ValueLayout::PerPlayer(3)),
        ] {
            assert_eq!(ValueLayout::of_scoring(scoring, players), own);
            for layout in [
                ValueLayout::ToMove,
                ValueLayout::Team,
                ValueLayout::PerPlayer(players),
                ValueLayout::PerPlayer(players + 1),
            ] {
                let fits = layout == own || layout == ValueLayout::PerPlayer(players);
                assert_eq!(layout.fits(scoring, players), fits, "{layout} {scoring:?}");
            }
        }
    }
}
