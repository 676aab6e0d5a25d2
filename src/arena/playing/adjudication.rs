//! Adjudication, as engine testers' tools offer it: a game whose outcome
//! the searchers already agree on is ended early, as a loss when both
//! searchers' scores have been beyond a threshold (one winning, the other
//! losing) for some moves in a row, as a draw when both have been near zero
//! for some moves in a row after a number of plies. The scores are those of
//! the per-ply search records ([`SearchRecord::value`](crate::agents::SearchRecord::value),
//! from -1 to 1 for the player who chose); a decision without one (a random
//! player, an outside engine) breaks both players' runs. Off unless asked
//! for, and refused for games scored by a margin, whose outcome is a score
//! that no win, loss or draw stands for.

use crate::core::{Kind, Player, Value};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The reason recorded when resign adjudication ends a game: the player
/// whose search saw it lost loses.
pub const RESIGN_ADJUDICATION_REASON: &str = "adjudicated-resignation";
/// The reason recorded when draw adjudication ends a game as a draw.
pub const DRAW_ADJUDICATION_REASON: &str = "adjudicated-draw";

/// The most moves in a row an adjudication may ask for.
const MAX_MOVES: u64 = 10_000;

/// When the runner ends a game early (`--adjudicate`): each rule is off
/// unless its number of moves is given.
#[derive(Clone, Debug, PartialEq)]
pub struct Adjudication {
    /// Resign adjudication: the moves in a row, of each player, for which
    /// one player's score must be at most `-resign_score` and the other's
    /// at least `resign_score`; `None` is off.
    pub resign_moves: Option<u64>,
    /// The score beyond which a player is taken to be lost (or won).
    pub resign_score: f64,
    /// Draw adjudication: the moves in a row, of each player, for which
    /// every player's score must be within `draw_score` of zero; `None` is
    /// off.
    pub draw_moves: Option<u64>,
    /// The score within which a position is taken to be level.
    pub draw_score: f64,
    /// Plies played before draw adjudication may end a game.
    pub draw_after: u64,
}

impl Default for Adjudication {
    /// Both rules off, their thresholds at cutechess's usual settings
    /// scaled to scores from -1 to 1.
    fn default() -> Self {
        Adjudication {
            resign_moves: None,
            resign_score: 0.9,
            draw_moves: None,
            draw_score: 0.05,
            draw_after: 0,
        }
    }
}

const ADJUDICATION_OPTIONS: &[crate::core::Declared<Adjudication>] = &[
    crate::field_option!(
        "resign-moves",
        resign_moves,
        Kind::Optional(&Kind::Whole { min: 1, max: MAX_MOVES }, "off"),
        "moves in a row, of each player, with one player's score at most -resign-score and the other's at least resign-score, after which the first loses; `off`: no resign adjudication";
        optional Value::Whole, whole
    ),
    crate::number_option!(
        "resign-score",
        resign_score,
        0.0,
        1.0,
        "the score (from -1, lost, to 1, won) beyond which a player counts as lost or won"
    ),
    crate::field_option!(
        "draw-moves",
        draw_moves,
        Kind::Optional(&Kind::Whole { min: 1, max: MAX_MOVES }, "off"),
        "moves in a row, of each player, with every score within draw-score of 0, after which the game is drawn; `off`: no draw adjudication";
        optional Value::Whole, whole
    ),
    crate::number_option!(
        "draw-score",
        draw_score,
        0.0,
        1.0,
        "how far from 0 every score may be for a position to count as level"
    ),
    crate::whole_option!(
        "draw-after",
        draw_after,
        0,
        1_000_000,
        "plies played before draw adjudication may end a game"
    ),
];

crate::configurable!(Adjudication, "adjudication", ADJUDICATION_OPTIONS, {
    fn check_together(&self) -> Result<(), String> {
        if self.resign_moves.is_none() && self.draw_moves.is_none() {
            return Err(
                "adjudication needs resign-moves or draw-moves (or both): with neither it would never end a game"
                    .into(),
            );
        }
        if self.resign_moves.is_some() && self.resign_score <= 0.0 {
            return Err(
                "resign-score must be above 0: at 0 a level game would count as lost".into(),
            );
        }
        if self.resign_moves.is_some()
            && self.draw_moves.is_some()
            && self.draw_score >= self.resign_score
        {
            return Err(format!(
                "draw-score ({}) must be below resign-score ({}): a position cannot be both level and lost",
                self.draw_score, self.resign_score
            ));
        }
        Ok(())
    }
});
crate::options_text!(Adjudication);

impl Adjudication {
    /// Checks the adjudication however it was made.
    ///
    /// # Errors
    /// What is wrong, naming the option.
    pub fn validate(&self) -> Result<(), String> {
        crate::core::validate_options(self)
    }
}

/// Its scores are numbers checked to be in their ranges, never NaN, so
/// equality is an equivalence (as a run's configuration needs).
impl Eq for Adjudication {}

/// Kept in `config.json` as its text, every option written out.
impl Serialize for Adjudication {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Adjudication {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// How an adjudication ends a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// This player loses.
    Loss(Player),
    /// A draw.
    Draw,
}

impl Verdict {
    /// The reason a game ended by this verdict records.
    pub fn reason(self) -> &'static str {
        match self {
            Verdict::Loss(_) => RESIGN_ADJUDICATION_REASON,
            Verdict::Draw => DRAW_ADJUDICATION_REASON,
        }
    }
}

/// The runs of scores of a game under way, read ply by ply: the same reading
/// decides in play and checks a logged game.
pub(crate) struct Adjudicator<'a> {
    rules: &'a Adjudication,
    plies: u64,
    /// Per player: its own moves in a row with a score at most
    /// `-resign_score`, at least `resign_score`, and within `draw_score`
    /// of zero.
    losing: Vec<u64>,
    winning: Vec<u64>,
    level: Vec<u64>,
}

impl<'a> Adjudicator<'a> {
    /// Nothing read yet, in a game of `players` players.
    pub fn new(rules: &'a Adjudication, players: usize) -> Adjudicator<'a> {
        Adjudicator {
            rules,
            plies: 0,
            losing: vec![0; players],
            winning: vec![0; players],
            level: vec![0; players],
        }
    }

    /// Reads one ply: each decision's player and its score, if it has one.
    pub fn read_ply(&mut self, decisions: impl IntoIterator<Item = (Player, Option<f64>)>) {
        self.plies += 1;
        for (player, score) in decisions {
            if player >= self.losing.len() {
                continue;
            }
            let run = |count: &mut u64, holds: bool| *count = if holds { *count + 1 } else { 0 };
            let score = score.filter(|score| score.is_finite());
            run(
                &mut self.losing[player],
                score.is_some_and(|score| score <= -self.rules.resign_score),
            );
            run(
                &mut self.winning[player],
                score.is_some_and(|score| score >= self.rules.resign_score),
            );
            run(
                &mut self.level[player],
                score.is_some_and(|score| score.abs() <= self.rules.draw_score),
            );
        }
    }

    /// The verdict after the plies read, if the game is to end: a loss
    /// first (when one player's run of lost scores and every other
    /// player's run of won scores are long enough), then a draw.
    pub fn verdict(&self) -> Option<Verdict> {
        if let Some(moves) = self.rules.resign_moves {
            let loser = (0..self.losing.len()).find(|&player| {
                self.losing[player] >= moves
                    && (0..self.winning.len())
                        .filter(|&other| other != player)
                        .all(|other| self.winning[other] >= moves)
            });
            if let Some(loser) = loser {
                return Some(Verdict::Loss(loser));
            }
        }
        let draw = self.rules.draw_moves.is_some_and(|moves| {
            self.plies >= self.rules.draw_after && self.level.iter().all(|&run| run >= moves)
        });
        draw.then_some(Verdict::Draw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adjudication(text: &str) -> Adjudication {
        text.parse().unwrap()
    }

    /// The verdict after each ply of `scores` (the mover alternating,
    /// player 0 first), as the first ply after which there is one.
    fn first_verdict(rules: &Adjudication, scores: &[Option<f64>]) -> Option<(usize, Verdict)> {
        let mut adjudicator = Adjudicator::new(rules, 2);
        scores.iter().enumerate().find_map(|(ply, &score)| {
            adjudicator.read_ply([(ply % 2, score)]);
            adjudicator.verdict().map(|verdict| (ply + 1, verdict))
        })
    }

    #[test]
    fn both_searchers_must_agree_for_the_moves_asked() {
        let rules = adjudication("resign-moves=2,resign-score=0.8");
        // Player 1 sees itself lost from ply 2 (its first move), player 0
        // sees itself winning from ply 3: two moves each after ply 5.
        let scores = [0.1, -0.9, 0.85, -0.95, 0.9, -0.99].map(Some);
        assert_eq!(first_verdict(&rules, &scores), Some((5, Verdict::Loss(1))));
        // One decision without a score breaks the runs.
        let broken = [
            Some(0.1),
            Some(-0.9),
            Some(0.85),
            None,
            Some(0.9),
            Some(-0.99),
        ];
        assert_eq!(first_verdict(&rules, &broken), None);
        // The winner must agree: a loser's despair alone ends nothing.
        let unsure = [0.1, -0.9, 0.5, -0.95, 0.5, -0.99].map(Some);
        assert_eq!(first_verdict(&rules, &unsure), None);
    }

    #[test]
    fn a_draw_waits_for_its_plies_and_level_scores() {
        let rules = adjudication("draw-moves=2,draw-score=0.05,draw-after=6");
        let level = [0.01, -0.02, 0.0, 0.04, 0.03, -0.05, 0.0].map(Some);
        assert_eq!(first_verdict(&rules, &level), Some((6, Verdict::Draw)));
        let early = adjudication("draw-moves=2,draw-score=0.05");
        assert_eq!(first_verdict(&early, &level), Some((4, Verdict::Draw)));
        let uneven = [0.01, -0.2, 0.0, 0.04, 0.03, -0.05, 0.0].map(Some);
        assert_eq!(first_verdict(&early, &uneven), Some((6, Verdict::Draw)));
    }

    #[test]
    fn settings_read_back_and_nonsense_is_refused() {
        let rules = adjudication("resign-moves=4,draw-moves=10,draw-after=80");
        assert_eq!(rules.to_string().parse::<Adjudication>().unwrap(), rules);
        let json = serde_json::to_string(&rules).unwrap();
        assert_eq!(serde_json::from_str::<Adjudication>(&json).unwrap(), rules);
        for (text, problem) in [
            ("", "needs resign-moves or draw-moves"),
            ("resign-moves=off", "needs resign-moves or draw-moves"),
            ("resign-moves=3,resign-score=0", "above 0"),
            (
                "resign-moves=3,draw-moves=3,draw-score=0.9",
                "must be below",
            ),
            ("draw-moves=0", "draw-moves"),
            ("resign-moves=3,resign-score=nan", "resign-score"),
            ("resign-moves=3,bogus=1", "bogus"),
        ] {
            let error = text.parse::<Adjudication>().unwrap_err().to_string();
            assert!(error.contains(problem), "{text}: {error}");
        }
        assert!(serde_json::from_str::<Adjudication>("\"draw-moves=0\"").is_err());
    }
}
