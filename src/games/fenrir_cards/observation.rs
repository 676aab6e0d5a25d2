//! What one player knows: its own cards and the public history.

use super::cards::{Card, CardSet};
use super::determinize::Sampler;
use super::moves::FenrirCardsMove;
use super::options::FenrirCardsRules;
use super::state::{Event, FenrirCards, Phase, public_facts};
use crate::core::{
    Game, GameRng, ImperfectInformation, MAX_PLAYERS, MoveList, Player, Status, Stochastic,
};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// One player's view of a game: its own hand, the cards it was dealt and
/// drew, and everything public (the history of asks, answers, discards and
/// draws, hand sizes, the pawn). Nothing about another player's cards or the
/// stock's order is in it.
///
/// The first [`determinize`](ImperfectInformation::determinize) call builds
/// the counting tables of the sampler and keeps them in the observation (and
/// its clones), so a search that samples many deals from one observation
/// pays for them once.
#[derive(Clone, Debug, PartialEq)]
pub struct FenrirObservation {
    pub(crate) rules: FenrirCardsRules,
    pub(crate) observer: u8,
    pub(crate) hand: CardSet,
    pub(crate) initial_hand: CardSet,
    /// The cards the observer drew from the stock, in order.
    pub(crate) own_draws: Vec<Card>,
    pub(crate) hand_sizes: [u8; MAX_PLAYERS],
    pub(crate) stock_left: u8,
    pub(crate) discarded: CardSet,
    pub(crate) pawn: u32,
    pub(crate) to_move: u8,
    pub(crate) phase: Phase,
    pub(crate) ply: u32,
    pub(crate) history: Vec<Event>,
    pub(crate) sampler: SamplerCache,
}

/// The sampler's counting tables, built on first use and shared by the
/// clones of an observation. Only a cache: it holds no knowledge, so it
/// never makes two observations differ, and whether it was built yet does
/// not show when an observation is printed.
#[derive(Clone, Default)]
pub(crate) struct SamplerCache(Arc<OnceLock<Sampler>>);

impl SamplerCache {
    /// The sampler of `observation`, built the first time it is asked for.
    fn get(&self, observation: &FenrirObservation) -> &Sampler {
        self.0.get_or_init(|| Sampler::new(observation))
    }
}

impl fmt::Debug for SamplerCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SamplerCache")
    }
}

impl PartialEq for SamplerCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl FenrirObservation {
    /// The rules of the game observed.
    pub fn rules(&self) -> &FenrirCardsRules {
        &self.rules
    }

    /// The player who observes.
    pub fn observer(&self) -> Player {
        self.observer as Player
    }

    /// The observer's cards.
    pub fn hand(&self) -> CardSet {
        self.hand
    }

    /// The number of cards each player holds (public).
    pub fn hand_size(&self, player: Player) -> usize {
        self.hand_sizes[player] as usize
    }

    /// The number of cards left in the stock (public).
    pub fn stock_left(&self) -> usize {
        self.stock_left as usize
    }

    public_facts!();

    /// Whether the observer is the player to move.
    pub fn observer_to_move(&self) -> bool {
        matches!(
            self.phase,
            Phase::Ask | Phase::FailedAsk { .. } | Phase::Stuck
        ) && self.to_move == self.observer
    }

    /// The number of deals consistent with this observation: the size of the
    /// observer's information set, counted by the determinizer. `None` before
    /// the deal, or if the number does not fit in a `u128`.
    pub fn consistent_deals(&self) -> Option<u128> {
        if self.phase == Phase::Deal {
            return None;
        }
        self.sampler.get(self).deal_count()
    }

    /// The legal moves of the observer when it is to move (none otherwise):
    /// they depend only on its own hand and public facts.
    pub fn legal_moves(&self, moves: &mut MoveList<FenrirCardsMove>) {
        moves.clear();
        if !self.observer_to_move() {
            return;
        }
        let ranks = self.rules.ranks();
        let hand = self.hand;
        match self.phase {
            Phase::Ask => {
                let cards = self.askable_cards();
                for target in 0..self.rules.players() {
                    if target != self.observer as usize && self.hand_sizes[target] > 0 {
                        moves.extend(cards.iter().map(|card| FenrirCardsMove::Ask {
                            target: target as u8,
                            card,
                        }));
                    }
                }
            }
            Phase::FailedAsk { suit, .. } => moves.extend(
                (hand & CardSet::suit(suit as usize, ranks))
                    .iter()
                    .map(FenrirCardsMove::Discard),
            ),
            Phase::Stuck => moves.extend(hand.iter().map(FenrirCardsMove::Discard)),
            Phase::Deal | Phase::Over(_) => {}
        }
    }

    /// The cards the observer may name in an ask (the same rule as the state's).
    pub fn askable_cards(&self) -> CardSet {
        let ranks = self.rules.ranks();
        let suits = self.hand.suits(ranks);
        let mut cards = (0..3)
            .filter(|&suit| suits >> suit & 1 != 0)
            .fold(CardSet::EMPTY, |all, suit| all | CardSet::suit(suit, ranks));
        if !self.rules.ask_held() {
            cards = cards & !self.hand;
        }
        if !self.rules.ask_discarded() {
            cards = cards & !self.discarded;
        }
        cards
    }
}

impl FenrirObservation {
    /// Writes the observation as text: the public facts, and with
    /// `private` the observer's own cards (its hand, the cards it was
    /// dealt and those it drew) as well.
    fn write_text(&self, out: &mut impl fmt::Write, private: bool) -> fmt::Result {
        let rules = &self.rules;
        let ranks = rules.ranks();
        let cards = |set: CardSet| {
            if set.is_empty() {
                "-".to_string()
            } else {
                set.text(ranks).replace(',', " ")
            }
        };
        if private {
            writeln!(
                out,
                "player{} sees, after {} plies:",
                self.observer, self.ply
            )?;
        } else {
            writeln!(out, "public view, after {} plies:", self.ply)?;
        }
        if self.phase == Phase::Deal {
            return writeln!(out, "to deal");
        }
        if private {
            writeln!(out, "hand      {}", cards(self.hand))?;
            writeln!(out, "dealt     {}", cards(self.initial_hand))?;
            let drawn: CardSet = self.own_draws.iter().copied().collect();
            writeln!(out, "drawn     {}", cards(drawn))?;
        }
        let sizes: Vec<String> = (0..rules.players())
            .map(|player| format!("player{player} {}", self.hand_sizes[player]))
            .collect();
        writeln!(out, "holding   {}", sizes.join(", "))?;
        writeln!(out, "stock     {} cards", self.stock_left)?;
        writeln!(out, "pawn      {} of {}", self.pawn, rules.track())?;
        writeln!(out, "discards  {}", cards(self.discarded))?;
        writeln!(
            out,
            "{}",
            super::notation::phase_text(self.phase, self.to_move)
        )?;
        for event in &self.history {
            match *event {
                Event::Ask {
                    asker,
                    target,
                    card,
                    held,
                } => writeln!(
                    out,
                    "  player{asker} asked player{target} for {}: {}",
                    card.text(ranks),
                    if held { "given" } else { "no" }
                )?,
                Event::Discard {
                    player,
                    card,
                    stuck,
                } => writeln!(
                    out,
                    "  player{player} discarded {}{}",
                    card.text(ranks),
                    if stuck { " (no legal ask)" } else { "" }
                )?,
                Event::Draw { player } => writeln!(out, "  player{player} drew")?,
            }
        }
        Ok(())
    }

    /// What every player knows, as text: the observation without the
    /// observer's own cards.
    pub fn public_text(&self) -> String {
        let mut text = String::new();
        let _ = self.write_text(&mut text, false);
        text
    }
}

/// The observation as a person reads it: the observer's cards, the public
/// counters and the public history, one event a line.
impl fmt::Display for FenrirObservation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_text(f, true)
    }
}

impl ImperfectInformation for FenrirCards {
    type Observation = FenrirObservation;

    fn public_observation_text(&self) -> String {
        self.observation(0).public_text()
    }

    fn observation(&self, player: Player) -> FenrirObservation {
        let mut own_draws = Vec::new();
        let mut position = 0;
        for event in &self.history {
            if let Event::Draw { player: drawer } = *event {
                if drawer as Player == player {
                    own_draws.push(self.deal.stock()[position]);
                }
                position += 1;
            }
        }
        let mut hand_sizes = [0; MAX_PLAYERS];
        for (size, hand) in hand_sizes.iter_mut().zip(&self.hands) {
            *size = hand.len() as u8;
        }
        FenrirObservation {
            rules: self.rules,
            observer: player as u8,
            hand: self.hands[player],
            initial_hand: self.deal.hands[player],
            own_draws,
            hand_sizes,
            stock_left: self.stock().len() as u8,
            discarded: self.discarded,
            pawn: self.pawn,
            to_move: self.to_move,
            phase: self.phase,
            ply: self.ply,
            history: self.history.clone(),
            sampler: SamplerCache::default(),
        }
    }

    /// Samples a deal uniformly among those consistent with the observation
    /// (see the `determinize` module for how) and returns the state it leads
    /// to. Before the deal nothing is hidden yet, and the undealt state is
    /// returned as it is.
    fn determinize(observation: &FenrirObservation, rng: &mut GameRng) -> FenrirCards {
        if observation.phase == Phase::Deal {
            return FenrirCards::new(observation.rules);
        }
        observation
            .sampler
            .get(observation)
            .sample(observation, rng)
    }

    fn observer_moves(observation: &FenrirObservation, moves: &mut MoveList<FenrirCardsMove>) {
        observation.legal_moves(moves);
    }
}

impl FenrirCards {
    /// A state with `hands` (the current hands), the given deal and the
    /// public facts of `observation`: how the determinizer turns a sampled
    /// deal into a state without replaying the game.
    pub(crate) fn from_observation_and_deal(
        observation: &FenrirObservation,
        deal: super::setup::Deal,
        hands: [CardSet; MAX_PLAYERS],
    ) -> FenrirCards {
        let mut state = FenrirCards {
            rules: observation.rules,
            deal,
            hands,
            drawn: (observation.rules.stock_size() - observation.stock_left as usize) as u8,
            discarded: observation.discarded,
            pawn: observation.pawn,
            to_move: observation.to_move,
            phase: observation.phase,
            ply: observation.ply,
            hash: 0,
            history: observation.history.clone(),
        };
        state.hash = state.hash_from_scratch();
        state
    }

    /// Deals with `rng` if the cards are not dealt yet (a convenience for
    /// callers that start from [`Game::new`]).
    pub fn dealt(mut self, rng: &mut GameRng) -> FenrirCards {
        if self.status() == Status::Chance {
            self.resolve_chance(rng);
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng_from_seed;

    #[test]
    fn the_sampler_tables_do_not_change_what_an_observation_is() {
        let mut rng = rng_from_seed(3);
        let state = FenrirCards::new(FenrirCardsRules::default()).dealt(&mut rng);
        let fresh = state.observation(1);
        let used = state.observation(1);
        assert!(used.consistent_deals().is_some());
        assert!(used.sampler.0.get().is_some());
        assert!(fresh.sampler.0.get().is_none());
        assert_eq!(used, fresh);
        assert_eq!(format!("{used:?}"), format!("{fresh:?}"));
    }
}
