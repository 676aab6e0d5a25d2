//! Policies the program gives by name (a Python function, say), playing
//! as agents in tournaments and matches beside the agents built from
//! specs: the games run here, and the policy is asked for each decision.

use super::dynamic::{DynState, positioned};
use super::{ActionState, Turn};
use crate::agents::{Agent, AgentError, Decision, player_choices};
use crate::core::{ActionPath, MoveList, ParseError, Player};
use crate::registry::{self, Registered};
use std::sync::Arc;

/// A policy: the next decision of `player` in `state`, an action id.
pub trait DynPolicy: Send + Sync {
    /// The id `player` chooses in `state`: the player to move, or one of
    /// the players of a simultaneous node.
    ///
    /// # Errors
    /// Why the policy could not choose (the program's own error, as text);
    /// the agent then fails, which a tournament counts as its forfeit.
    fn choose(&self, state: &dyn DynState, player: Player) -> Result<u32, String>;
}

/// Policies by the name they play under.
pub type NamedPolicies = [(String, Arc<dyn DynPolicy>)];

/// The agent of `spec`: the policy of that name, or else the agent the
/// registry builds from the spec.
///
/// # Errors
/// A spec that is neither a policy's name nor an agent the registry builds.
pub(super) fn policy_or_agent<G: Registered>(
    policies: &NamedPolicies,
    game: &'static str,
    spec: &str,
    seed: u64,
) -> Result<Box<dyn Agent<G>>, ParseError> {
    match policies.iter().find(|(name, _)| name == spec) {
        Some((name, policy)) => Ok(Box::new(PolicyAgent {
            name: name.clone(),
            game,
            policy: policy.clone(),
        })),
        None => registry::build_agent::<G>(spec, seed),
    }
}

/// A named policy as an agent of any game.
struct PolicyAgent {
    name: String,
    /// The name the game was loaded by (a variant's, say), which the
    /// states the policy sees carry.
    game: &'static str,
    policy: Arc<dyn DynPolicy>,
}

impl PolicyAgent {
    /// The policy's next id, checked against the legal ones: a policy's
    /// mistake is its own failure, said in the agent's words.
    fn next_id<G: Registered>(
        &self,
        state: &ActionState<G>,
        player: Player,
    ) -> Result<u32, AgentError> {
        let seen = positioned(state.clone(), self.game);
        let id = self
            .policy
            .choose(seen.as_ref(), player)
            .map_err(|error| AgentError::new(format!("{}: {error}", self.name)))?;
        if state.legal_actions(player).binary_search(&id).is_err() {
            return Err(AgentError::new(format!(
                "{} chose action {id}, which is not legal here",
                self.name
            )));
        }
        Ok(id)
    }
}

impl<G: Registered> Agent<G> for PolicyAgent {
    fn spec(&self) -> &str {
        &self.name
    }

    /// Asks the policy for each decision of the move (one at a
    /// simultaneous node) and plays the move they make up.
    fn decide(&mut self, state: &G, player: Player) -> Result<Decision<G::Move>, AgentError> {
        let mut choices = MoveList::new();
        player_choices(state, player, &mut choices)?;
        let mut action = ActionState::from_state(state.clone());
        let mut path = Vec::new();
        if action.turn() == Turn::Simultaneous {
            path.push(self.next_id(&action, player)?);
        } else {
            loop {
                let id = self.next_id(&action, player)?;
                path.push(id);
                action
                    .apply_action(id)
                    .map_err(|error| AgentError::new(error.to_string()))?;
                if action.pending().is_empty() {
                    break;
                }
            }
        }
        let mut ids = ActionPath::new();
        choices
            .iter()
            .copied()
            .find(|&mv| {
                ids.clear();
                state.action_path(mv, &mut ids);
                ids.as_slice() == path
            })
            .map(Decision::Play)
            .ok_or_else(|| {
                AgentError::new(format!(
                    "{}'s actions {path:?} make no legal move",
                    self.name
                ))
            })
    }
}
