//! The policies of Fenrir's Path, built from spec strings.
//!
//! | spec | policy |
//! |------|--------|
//! | `greedy` | [`GreedyCollector`]: win now if possible, else collect, else keep the wolf far |
//! | `random`, `mcts:...` | the generic agents of [`crate::agents::build_agent`] |
//!
//! The generic builder refuses `alphabeta` (it searches two competing sides)
//! and `ismcts` (there is no hidden information) for this game.

use crate::agents::{Agent, AgentError, Decision, player_choices};
use crate::core::{Game, GameRng, MoveList, ParseError, Player, rng_from_seed};
use crate::games::fenrir_path::{FenrirPath, FenrirPathMove};
use rand::RngExt;

/// Builds a policy for the team from its spec and seed: `greedy` is the
/// collector of this game, every other spec goes to the generic builder.
///
/// # Errors
/// If the spec names no agent, has bad options, or names a kind that cannot
/// play a cooperative game; the error says which.
pub fn build_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<FenrirPath>>, ParseError> {
    let spec = spec.trim();
    match spec.split(':').next().unwrap_or_default().trim() {
        "greedy" if spec == "greedy" => Ok(Box::new(GreedyCollector::new(seed))),
        "greedy" => Err(ParseError::new(
            "agent spec",
            spec,
            "unknown option (`greedy` takes no options)",
        )),
        _ => crate::agents::build_encoded_agent(spec, seed),
    }
}

/// Wins at once if it can, else collects a tile whenever some god can, else
/// plays the move that leaves the wolf farthest from Odin; ties are broken
/// uniformly at random.
///
/// Where the wolf ends depends only on whether the move collects, so among
/// non-collecting moves the last rule ties, and the choice is uniform: this
/// is the one-move lookahead of a team that does not plan.
pub struct GreedyCollector {
    rng: GameRng,
    moves: MoveList<FenrirPathMove>,
    best: Vec<FenrirPathMove>,
}

impl GreedyCollector {
    /// A collector that breaks ties with random choices from `seed`.
    pub fn new(seed: u64) -> Self {
        GreedyCollector {
            rng: rng_from_seed(seed),
            moves: MoveList::new(),
            best: Vec::new(),
        }
    }
}

impl Agent<FenrirPath> for GreedyCollector {
    fn spec(&self) -> &str {
        "greedy"
    }

    fn decide(
        &mut self,
        state: &FenrirPath,
        player: Player,
    ) -> Result<Decision<FenrirPathMove>, AgentError> {
        player_choices(state, player, &mut self.moves)?;
        self.best.clear();
        let mut best_key = (false, false, 0);
        for &mv in self.moves.iter() {
            let mut after = state.clone();
            after.play(mv);
            let won = after.ending().is_some_and(|end| end.is_win());
            let key = (won, state.collects(mv), after.wolf());
            if self.best.is_empty() || key > best_key {
                best_key = key;
                self.best.clear();
            }
            if key == best_key {
                self.best.push(mv);
            }
        }
        Ok(Decision::Play(
            self.best[self.rng.random_range(0..self.best.len())],
        ))
    }
}
