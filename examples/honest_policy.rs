//! A researcher's own policy for Fetters of Fenrir, compared with the
//! built-in ones on the same deals.
//!
//! The policy below asks the player holding the most cards for the highest
//! card it may name that has not been discarded, and on a miss gives up its
//! lowest card of the suit. It implements `HonestPolicy`, so it is handed
//! only its own observation (its hand and the public history) and cannot
//! read another hand even by mistake.
//!
//! Run with `cargo run --release --example honest_policy`.

use norn::agents::{Agent, AgentError, HonestAgent, HonestPolicy};
use norn::arena::winrate::{AgentPolicy, DealPolicy, WinRateRun, estimate_win_rate};
use norn::companions::fenrir_cards::policies::build_agent;
use norn::core::MoveList;
use norn::games::fenrir_cards::{
    FenrirCards, FenrirCardsMove, FenrirCardsRules, FenrirObservation,
};
use std::sync::Arc;

/// Highest card first, from the fullest hand.
struct FullestHandLowestCard {
    moves: MoveList<FenrirCardsMove>,
}

impl HonestPolicy<FenrirCards> for FullestHandLowestCard {
    fn spec(&self) -> &str {
        "fullest-hand"
    }

    fn decide(&mut self, observation: &FenrirObservation) -> Result<FenrirCardsMove, AgentError> {
        observation.legal_moves(&mut self.moves);
        let discarded = observation.discarded();
        let ranks = observation.rules().ranks();
        // A miss moves the pawn forward by the card given up, a hit back by
        // the card asked for: discard low, ask high. Among asks, cards
        // still in play first, then the largest hand, then the highest rank.
        let key = |mv: &FenrirCardsMove| match *mv {
            FenrirCardsMove::Discard(card) => (false, 0, card.rank(ranks)),
            FenrirCardsMove::Ask { target, card } => (
                discarded.contains(card),
                usize::MAX - observation.hand_size(target as usize),
                u8::MAX - card.rank(ranks),
            ),
        };
        self.moves
            .iter()
            .copied()
            .min_by_key(key)
            .ok_or_else(|| AgentError::new("the observer has no move"))
    }
}

fn fullest_hand_agent(seed: u64) -> Box<dyn Agent<FenrirCards>> {
    Box::new(HonestAgent::new(
        "fullest-hand",
        seed,
        Box::new(|_seat_seed| {
            Box::new(FullestHandLowestCard {
                moves: MoveList::new(),
            })
        }),
    ))
}

fn main() {
    let rules: FenrirCardsRules = "players=3".parse().expect("valid rules");
    let run = WinRateRun {
        deals: 2_000,
        master_seed: 1,
        threads: 2,
    };
    let policies: Vec<Box<dyn DealPolicy<FenrirCards>>> = vec![
        Box::new(AgentPolicy::new("random", Arc::new(build_agent)).expect("a built-in spec")),
        Box::new(
            AgentPolicy::new(
                "fullest-hand",
                Arc::new(|_: &str, seed: u64| Ok(fullest_hand_agent(seed))),
            )
            .expect("the policy builds for any spec"),
        ),
        Box::new(AgentPolicy::new("counting", Arc::new(build_agent)).expect("a built-in spec")),
    ];
    println!("{} deals of Fetters of Fenrir ({rules})", run.deals);
    for policy in &policies {
        let estimate = estimate_win_rate(&rules, policy.as_ref(), run, &|| {})
            .expect("a thread pool of two threads");
        let rate = estimate.rate;
        println!(
            "{:<14} {:>5} wins  {:6.2}%  (95% interval {:.2}% - {:.2}%)",
            rate.policy,
            rate.wins,
            100.0 * rate.win_rate,
            100.0 * rate.ci_low,
            100.0 * rate.ci_high
        );
    }
}
