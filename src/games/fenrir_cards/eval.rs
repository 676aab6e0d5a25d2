//! What searchers use: the evaluation, and the playouts that play an
//! imagined deal to the end and score it.

use super::cards::CardSet;
use super::counting::{KnownLacks, PublicView, counting_move, sort_by_counting};
use super::moves::FenrirCardsMove;
use super::state::{FenrirCards, Phase};
use crate::core::{Evaluate, Game, GameRng, MAX_PLAYERS, MoveList, Player, Playout, Status};
use rand::RngExt;

impl Evaluate for FenrirCards {
    /// The team's prospects between 0 (lost) and 1 (won): the room left
    /// before Odin, `1 - pawn / track`, weighted by how much of the deck is
    /// already discarded, `1/2 + 1/2 * discarded / deck`. A hit raises it
    /// (the pawn goes back and a card is gone), a miss lowers it the less the
    /// cheaper the discard, so searches that order moves by it try hits
    /// first and the cheapest misses next.
    fn evaluate(&self, _player: Player) -> f64 {
        match self.phase {
            Phase::Over(end) => {
                if end.is_win() {
                    1.0
                } else {
                    0.0
                }
            }
            _ => {
                let room = 1.0 - self.pawn as f64 / self.rules.track() as f64;
                let progress = self.discarded.len() as f64 / self.rules.deck_size() as f64;
                room * (0.5 + 0.5 * progress)
            }
        }
    }
}

/// How the team plays in a playout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayoutMoves {
    /// Every player follows the counting rule on its own hand and the
    /// public history, as an honest team could.
    Counting,
    /// Every player sees every hand of the sampled deal: it asks for a card
    /// the asked player holds when it can (the most valuable), fails as
    /// cheaply as it can otherwise and discards its lowest card.
    OpenHand,
    /// Uniformly random moves.
    Random,
}

/// A playout: the team's rule, a share of random moves, and the score.
#[derive(Clone, Debug)]
pub struct FenrirPlayout {
    /// How the team picks its moves.
    pub moves: PlayoutMoves,
    /// The probability that a move is uniformly random instead.
    pub randomness: f64,
    /// Score a win by its safety margin, `1/2 + 1/2 (1 - peak / track)`
    /// where `peak` is the furthest the pawn got, rather than as 1; a loss
    /// scores 0 either way.
    pub margin: bool,
    legal: MoveList<FenrirCardsMove>,
}

impl FenrirPlayout {
    /// The playout of the honest search.
    pub fn honest() -> Self {
        FenrirPlayout::new(PlayoutMoves::Counting, 0.1, true)
    }

    /// The playout of the open-hand reference.
    pub fn open_hand() -> Self {
        FenrirPlayout::new(PlayoutMoves::OpenHand, 0.1, true)
    }

    /// A playout that picks moves by `moves`, plays a uniformly random move
    /// instead with probability `randomness`, and scores a win by its margin
    /// when `margin` is set.
    pub fn new(moves: PlayoutMoves, randomness: f64, margin: bool) -> Self {
        FenrirPlayout {
            moves,
            randomness,
            margin,
            legal: MoveList::new(),
        }
    }
}

impl Playout<FenrirCards> for FenrirPlayout {
    fn simulate(
        &mut self,
        mut state: FenrirCards,
        rng: &mut GameRng,
    ) -> Result<[f64; MAX_PLAYERS], Status> {
        let rules = *state.rules();
        let mut lacks = KnownLacks::default();
        let mut seen = 0;
        let mut peak = state.pawn();
        loop {
            if self.moves == PlayoutMoves::Counting {
                for event in &state.history()[seen..] {
                    lacks.observe(event, &rules);
                }
                seen = state.history().len();
            }
            let player = match state.status() {
                Status::Over(outcome) => {
                    let score = if outcome.payoffs.get(0) <= 0.0 {
                        0.0
                    } else if self.margin {
                        0.5 + 0.5 * (1.0 - peak as f64 / rules.track() as f64)
                    } else {
                        1.0
                    };
                    return Ok([score; MAX_PLAYERS]);
                }
                Status::ToMove(player) => player,
                // A dealt game has neither.
                other @ (Status::Chance | Status::Simultaneous) => return Err(other),
            };
            let mv = if self.moves == PlayoutMoves::Random || rng.random_bool(self.randomness) {
                state.legal_moves(&mut self.legal);
                self.legal[rng.random_range(0..self.legal.len())]
            } else if self.moves == PlayoutMoves::Counting {
                counting_move(&public_view(&state, player, &lacks))
            } else {
                state.legal_moves(&mut self.legal);
                open_hand_move(&state, player, &self.legal)
            };
            state.play(mv);
            peak = peak.max(state.pawn());
        }
    }
}

/// Sorts `moves`, legal moves of `state`, in the counting rule's order of
/// preference, the move the rule plays first. It reads what the player to
/// move knows: its hand and the public history. A state with no player to
/// move leaves them as they are.
pub fn sort_by_counting_rule(state: &FenrirCards, moves: &mut [FenrirCardsMove]) {
    let Status::ToMove(player) = state.status() else {
        return;
    };
    let mut lacks = KnownLacks::default();
    for event in state.history() {
        lacks.observe(event, state.rules());
    }
    sort_by_counting(&public_view(state, player, &lacks), moves);
}

/// What `player` knows of `state`, given the lacks the public history shows.
fn public_view<'a>(state: &'a FenrirCards, player: usize, lacks: &'a KnownLacks) -> PublicView<'a> {
    PublicView {
        rules: state.rules(),
        mover: player,
        hand: state.hand(player),
        hand_sizes: std::array::from_fn(|p| state.hand(p).len() as usize),
        stock_left: state.stock().len(),
        discarded: state.discarded(),
        lacks,
        phase: state.phase(),
        askable: state.askable_cards(player),
    }
}

/// The open-hand rule of [`PlayoutMoves::OpenHand`].
fn open_hand_move(state: &FenrirCards, mover: usize, moves: &[FenrirCardsMove]) -> FenrirCardsMove {
    let rules = state.rules();
    let ranks = rules.ranks();
    let hand = state.hand(mover);
    let key = |mv: &FenrirCardsMove| match *mv {
        FenrirCardsMove::Ask { target, card } => {
            if state.hand(target as usize).contains(card) {
                (1, rules.value(card) as i64)
            } else {
                let cost = (hand & CardSet::suit(card.suit(ranks), ranks))
                    .iter()
                    .map(|own| rules.value(own))
                    .min()
                    .unwrap_or(0);
                (0, -(cost as i64))
            }
        }
        FenrirCardsMove::Discard(card) => (0, -(rules.value(card) as i64)),
    };
    debug_assert!(matches!(
        state.phase(),
        Phase::Ask | Phase::FailedAsk { .. } | Phase::Stuck
    ));
    *moves
        .iter()
        .max_by_key(|mv| key(mv))
        .expect("playouts choose among legal moves")
}
