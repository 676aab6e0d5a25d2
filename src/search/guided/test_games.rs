//! Small games whose values are known without a search, for the guided
//! search's tests: Nim (Bouton's theorem), whose moves take two
//! decisions, a bandit of arms whose payoffs are known, and a gamble
//! settled by a chance event below the root.

use super::evaluator::{EvaluationError, Evaluations, LeafBatch, LeafEvaluator};
use super::layout::ValueLayout;
use crate::core::{
    ActionPath, DealModel, Encoding, Evaluate, Game, MoveList, NoRules, Outcome, Payoffs, Player,
    Scoring, Status,
};

/// The most heaps of a Nim position.
pub(super) const HEAPS: usize = 3;
/// The most tokens a heap holds.
pub(super) const MOST_TOKENS: u8 = 7;

/// Nim: two players take any number of tokens from one heap in turn, and
/// whoever takes the last token wins. By Bouton's theorem the player to
/// move wins exactly when the heaps' XOR (the nim-sum) is not zero, by
/// moving to a nim-sum of zero. A move is two decisions: the heap (id =
/// heap), then the tokens taken (id = `HEAPS + taken - 1`).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Nim {
    pub(super) heaps: [u8; HEAPS],
    pub(super) ply: u32,
}

impl Nim {
    pub(super) fn of(heaps: [u8; HEAPS]) -> Nim {
        Nim { heaps, ply: 0 }
    }

    pub(super) fn nim_sum(&self) -> u8 {
        self.heaps.iter().fold(0, |sum, heap| sum ^ heap)
    }

    fn mover(&self) -> Player {
        (self.ply % 2) as Player
    }
}

impl Game for Nim {
    /// The heap and the tokens taken.
    type Move = (u8, u8);
    type Rules = NoRules;
    const NAME: &'static str = "nim";
    const SCORING: Scoring = Scoring::WinLoss;

    fn new(_: NoRules) -> Nim {
        Nim::of([3, 4, 5])
    }

    fn rules(&self) -> &NoRules {
        &NoRules
    }

    fn num_players(&self) -> usize {
        2
    }

    fn status(&self) -> Status {
        if self.heaps.iter().all(|&heap| heap == 0) {
            Status::Over(Outcome {
                payoffs: Payoffs::win_for(1 - self.mover()),
                reason: "last token taken",
            })
        } else {
            Status::ToMove(self.mover())
        }
    }

    fn legal_moves(&self, moves: &mut MoveList<(u8, u8)>) {
        moves.clear();
        for (heap, &tokens) in self.heaps.iter().enumerate() {
            moves.extend((1..=tokens).map(|taken| (heap as u8, taken)));
        }
    }

    fn play(&mut self, (heap, taken): (u8, u8)) {
        self.heaps[heap as usize] -= taken;
        self.ply += 1;
    }

    fn hash(&self) -> u64 {
        u64::from_le_bytes([
            self.heaps[0],
            self.heaps[1],
            self.heaps[2],
            (self.ply % 2) as u8,
            0,
            0,
            0,
            0,
        ])
    }

    fn ply(&self) -> u32 {
        self.ply
    }
}

impl Encoding for Nim {
    fn num_actions(_: &NoRules) -> usize {
        HEAPS + MOST_TOKENS as usize
    }

    fn action_path(&self, (heap, taken): (u8, u8), path: &mut ActionPath) {
        path.push(u32::from(heap));
        path.push(HEAPS as u32 + u32::from(taken) - 1);
    }

    fn action_name(_: &NoRules, id: u32) -> String {
        format!("{id}")
    }

    fn observation_shape(_: &NoRules) -> Vec<usize> {
        vec![HEAPS * 2]
    }

    fn write_observation(&self, _: Player, pending: &[u32], out: &mut [f32]) {
        for (heap, &tokens) in self.heaps.iter().enumerate() {
            out[heap] = f32::from(tokens) / f32::from(MOST_TOKENS);
        }
        if let Some(&heap) = pending.first() {
            out[HEAPS + heap as usize] = 1.0;
        }
    }
}

impl Evaluate for Nim {
    /// Bouton's value: exact, without a search.
    fn evaluate(&self, player: Player) -> f64 {
        let mover_wins = self.nim_sum() != 0;
        if mover_wins == (player == self.mover()) {
            1.0
        } else {
            -1.0
        }
    }
}

/// The exact value of Nim positions with a decision under way: the best
/// value for the mover over the moves that continue the heap chosen.
pub(super) struct ExactNim;

impl LeafEvaluator<Nim> for ExactNim {
    fn layout(&self, _: usize) -> ValueLayout {
        ValueLayout::ToMove
    }

    fn reads_tensors(&self) -> bool {
        false
    }

    fn evaluate(
        &mut self,
        batch: &LeafBatch<'_, Nim>,
        out: &mut Evaluations<'_>,
    ) -> Result<(), EvaluationError> {
        for (leaf, value) in batch.leaves.iter().zip(out.values.iter_mut()) {
            *value = match leaf.pending.first() {
                None => leaf.state.evaluate(leaf.player) as f32,
                Some(&heap) => {
                    let mut after = leaf.state.clone();
                    let wins = (1..=leaf.state.heaps[heap as usize]).any(|taken| {
                        after.clone_from(leaf.state);
                        after.play((heap as u8, taken));
                        after.nim_sum() == 0
                    });
                    if wins { 1.0 } else { -1.0 }
                }
            };
        }
        Ok(())
    }
}

/// One player pulls one of `arms` arms and the game ends with that arm's
/// payoff: arm `i` pays `(i + 1) / arms`, a known value for each root
/// action, the same at every visit.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Bandit {
    pub(super) arms: u32,
    pub(super) pulled: Option<u32>,
}

impl Game for Bandit {
    type Move = u32;
    type Rules = NoRules;
    const NAME: &'static str = "bandit";
    const SCORING: Scoring = Scoring::Team;

    fn new(_: NoRules) -> Bandit {
        Bandit {
            arms: 8,
            pulled: None,
        }
    }

    fn rules(&self) -> &NoRules {
        &NoRules
    }

    fn num_players(&self) -> usize {
        1
    }

    fn status(&self) -> Status {
        match self.pulled {
            Some(arm) => Status::Over(Outcome {
                payoffs: Payoffs::shared(1, f64::from(arm + 1) / f64::from(self.arms)),
                reason: "arm pulled",
            }),
            None => Status::ToMove(0),
        }
    }

    fn legal_moves(&self, moves: &mut MoveList<u32>) {
        moves.clear();
        moves.extend(0..self.arms);
    }

    fn play(&mut self, arm: u32) {
        self.pulled = Some(arm);
    }

    fn hash(&self) -> u64 {
        self.pulled.map_or(0, |arm| u64::from(arm) + 1)
    }

    fn ply(&self) -> u32 {
        u32::from(self.pulled.is_some())
    }
}

impl Encoding for Bandit {
    fn num_actions(_: &NoRules) -> usize {
        64
    }

    fn action_path(&self, arm: u32, path: &mut ActionPath) {
        path.push(arm);
    }

    fn action_name(_: &NoRules, id: u32) -> String {
        format!("arm {id}")
    }

    fn observation_shape(_: &NoRules) -> Vec<usize> {
        vec![1]
    }

    fn write_observation(&self, _: Player, _: &[u32], _: &mut [f32]) {}
}

impl Evaluate for Bandit {
    /// Nothing known before an arm is pulled.
    fn evaluate(&self, _: Player) -> f64 {
        0.5
    }
}

/// The winning balls of [`Gamble`]'s urn.
pub(super) const WINNING_BALLS: u32 = 2;
/// The losing balls of [`Gamble`]'s urn.
pub(super) const LOSING_BALLS: u32 = 1;

/// Where a [`Gamble`] stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Wager {
    /// The player has not chosen.
    Open,
    /// The player stood: the game ends with the stake.
    Stood,
    /// The player gambled and the urn is being drawn (a chance event).
    Drawing,
    /// The first ball drawn won (`true`) or lost.
    Drawn(bool),
}

/// One player stands (id 0), ending the game with `stake` as the team's
/// payoff, or gambles (id 1): the urn of [`WINNING_BALLS`] winning and
/// [`LOSING_BALLS`] losing balls is drawn, and the first ball pays 1 if it
/// wins, 0 if it loses. The gamble is worth the share of winning balls, a
/// value only a search that weighs the chance outcomes below the root by
/// their probabilities finds.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Gamble {
    pub(super) stake: f64,
    pub(super) wager: Wager,
}

impl Game for Gamble {
    type Move = u32;
    type Rules = NoRules;
    const NAME: &'static str = "gamble";
    const SCORING: Scoring = Scoring::Team;

    fn new(_: NoRules) -> Gamble {
        Gamble {
            stake: 0.5,
            wager: Wager::Open,
        }
    }

    fn rules(&self) -> &NoRules {
        &NoRules
    }

    fn num_players(&self) -> usize {
        1
    }

    fn status(&self) -> Status {
        let payoff = match self.wager {
            Wager::Open => return Status::ToMove(0),
            Wager::Drawing => return Status::Chance,
            Wager::Stood => self.stake,
            Wager::Drawn(won) => f64::from(u8::from(won)),
        };
        Status::Over(Outcome {
            payoffs: Payoffs::shared(1, payoff),
            reason: "wager settled",
        })
    }

    fn legal_moves(&self, moves: &mut MoveList<u32>) {
        moves.clear();
        moves.extend([0, 1]);
    }

    fn play(&mut self, id: u32) {
        self.wager = if id == 0 {
            Wager::Stood
        } else {
            Wager::Drawing
        };
    }

    fn hash(&self) -> u64 {
        match self.wager {
            Wager::Open => 0,
            Wager::Stood => 1,
            Wager::Drawing => 2,
            Wager::Drawn(won) => 3 + u64::from(won),
        }
    }

    fn ply(&self) -> u32 {
        u32::from(self.wager != Wager::Open)
    }
}

impl Encoding for Gamble {
    fn num_actions(_: &NoRules) -> usize {
        2
    }

    fn action_path(&self, id: u32, path: &mut ActionPath) {
        path.push(id);
    }

    fn action_name(_: &NoRules, id: u32) -> String {
        ["stand", "gamble"][id as usize].to_string()
    }

    fn observation_shape(_: &NoRules) -> Vec<usize> {
        vec![1]
    }

    fn write_observation(&self, _: Player, _: &[u32], _: &mut [f32]) {}

    /// Ball 0 wins, ball 1 loses; the whole urn is drawn.
    fn deal_model(_: &NoRules) -> Option<DealModel<Gamble>> {
        Some(DealModel {
            urns: vec![vec![WINNING_BALLS, LOSING_BALLS]],
            deal: |_, drawn| Gamble {
                stake: 0.0,
                wager: Wager::Drawn(drawn[0] == 0),
            },
            outcome_name: |_, id| ["win", "loss"][id as usize].to_string(),
        })
    }
}

impl Evaluate for Gamble {
    /// Nothing known before the wager is settled.
    fn evaluate(&self, _: Player) -> f64 {
        0.5
    }
}
