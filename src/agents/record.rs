//! What a searching agent's decision found and cost, kept for the run's
//! log and for callers that want to see inside the search.

use crate::core::{Notation, Ply, Status};
use serde::Serialize;

/// What a searching agent's last decision found and cost
/// ([`Agent::last_search`](super::Agent::last_search)), with the moves as `M`: the game's moves, or
/// their text.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchRecord<M> {
    /// The wall-clock time of the search, in seconds.
    pub seconds: f64,
    /// Alpha-beta: the deepest iteration completed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// MCTS, IS-MCTS, SM-MCTS and the guided search: the simulations run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iterations: Option<u64>,
    /// The nodes visited (alpha-beta) or held by the trees (the MCTS
    /// family).
    pub nodes: u64,
    /// The chosen move's value for the player who moves, in `[-1, 1]`
    /// (a loss to a win).
    pub value: f64,
    /// The line the search expects, the chosen move first (the MCTS
    /// family: the chosen move alone).
    pub pv: Vec<M>,
    /// MCTS and IS-MCTS: the chosen move's share of the root's visits;
    /// SM-MCTS: its probability in the root strategy the choice was drawn
    /// from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub visit_share: Option<f64>,
    /// The guided search (`az`): the entropy of its search policy at the
    /// root, in nats (of the first decision, for a move of several).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy_entropy: Option<f64>,
}

impl<M> SearchRecord<M> {
    /// The same record with each move of the line mapped by `convert`, e.g.
    /// written in the game's notation.
    pub fn map_moves<N>(self, convert: impl FnMut(M) -> N) -> SearchRecord<N> {
        SearchRecord {
            seconds: self.seconds,
            depth: self.depth,
            iterations: self.iterations,
            nodes: self.nodes,
            value: self.value,
            pv: self.pv.into_iter().map(convert).collect(),
            visit_share: self.visit_share,
            policy_entropy: self.policy_entropy,
        }
    }
}

impl<M: Copy> SearchRecord<M> {
    /// The record with its line written in the notation of `state`, where
    /// the search began, each move from the state it is played in. The
    /// line stops before a move the rules refuse (a stale entry of a
    /// transposition table can end a line with one). At a simultaneous
    /// choice only the searcher's own move is written: a player's move
    /// alone is not a ply to play on from.
    pub fn written<G: Notation<Move = M>>(self, state: &G) -> SearchRecord<String> {
        let mut texts = Vec::with_capacity(self.pv.len());
        if state.status() == Status::Simultaneous {
            texts.extend(self.pv.first().map(|&mv| state.move_text(mv)));
        } else {
            let mut line = state.clone();
            for &mv in &self.pv {
                let ply = Ply::Move(mv);
                if line.check_ply(&ply).is_err() {
                    break;
                }
                texts.push(line.move_text(mv));
                line.play_ply(&ply);
            }
        }
        SearchRecord {
            pv: texts,
            ..self.map_moves(|_| String::new())
        }
    }
}
