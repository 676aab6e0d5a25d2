//! What a game can do beyond the basic model, and how generic code reaches it.
//!
//! Chance events, hidden information and simultaneous moves are traits
//! ([`Stochastic`], [`ImperfectInformation`], [`Simultaneous`]) so that a
//! searcher asks for exactly what it needs. Code that is generic over every
//! game (the play loop, perft, the command line) cannot name those traits in
//! its bounds, because most games lack them. It asks the game instead: each
//! [`Game`] has one hook per optional trait ([`Game::with_chance`],
//! [`Game::with_hidden_information`], [`Game::with_simultaneous_moves`]) that
//! runs a visitor with the trait's bound satisfied, or returns `None` when the
//! game does not have it. A game that implements one of the traits overrides
//! its hook with `Some(visitor.visit())`; the conformance suite checks that
//! the hooks and the states a game reaches agree.

use super::{Game, GameRng, ImperfectInformation, MoveList, Player, Simultaneous, Stochastic};
use serde::Serialize;

/// What a game's payoffs mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scoring {
    /// Two sides, zero-sum: `+1` for a win, `-1` for a loss, `0` for a draw.
    WinLoss,
    /// Two sides, zero-sum: each side's payoff is its score margin (Thud's
    /// surviving pieces), so a result has a size as well as a sign.
    Margin,
    /// The players are one team that shares one payoff: a cooperative game.
    Team,
}

/// Generic code that needs [`Stochastic`]: run through [`Game::with_chance`].
pub trait ChanceVisitor<G: Game> {
    /// What the visit returns to the caller of [`Game::with_chance`].
    type Output;
    /// Runs the generic code for a game known to be [`Stochastic`].
    fn visit(self) -> Self::Output
    where
        G: Stochastic;
}

/// Generic code that needs [`ImperfectInformation`]: run through
/// [`Game::with_hidden_information`].
pub trait HiddenInformationVisitor<G: Game> {
    /// What the visit returns to the caller of [`Game::with_hidden_information`].
    type Output;
    /// Runs the generic code for a game known to have [`ImperfectInformation`].
    fn visit(self) -> Self::Output
    where
        G: ImperfectInformation;
}

/// Generic code that needs [`Simultaneous`]: run through
/// [`Game::with_simultaneous_moves`].
pub trait SimultaneousVisitor<G: Game> {
    /// What the visit returns to the caller of [`Game::with_simultaneous_moves`].
    type Output;
    /// Runs the generic code for a game known to be [`Simultaneous`].
    fn visit(self) -> Self::Output
    where
        G: Simultaneous;
}

/// Samples the chance event `state` waits for, through its game's
/// [`Stochastic`]; `false` if the game has no chance events (and `state` is
/// left as it was).
pub fn resolve_chance<G: Game>(state: &mut G, rng: &mut GameRng) -> bool {
    G::with_chance(ResolveChance { state, rng }).is_some()
}

struct ResolveChance<'a, G> {
    state: &'a mut G,
    rng: &'a mut GameRng,
}

impl<G: Game> ChanceVisitor<G> for ResolveChance<'_, G> {
    type Output = ();

    fn visit(self)
    where
        G: Stochastic,
    {
        self.state.resolve_chance(self.rng);
    }
}

/// Every player's choices at a simultaneous state, through its game's
/// [`Simultaneous`]; `None` if the game has no simultaneous moves.
pub fn joint_choices<G: Game>(state: &G) -> Option<Vec<MoveList<G::Move>>> {
    G::with_simultaneous_moves(JointChoices { state })
}

struct JointChoices<'a, G> {
    state: &'a G,
}

impl<G: Game> SimultaneousVisitor<G> for JointChoices<'_, G> {
    type Output = Vec<MoveList<G::Move>>;

    fn visit(self) -> Self::Output
    where
        G: Simultaneous,
    {
        (0..self.state.num_players())
            .map(|player: Player| {
                let mut moves = MoveList::new();
                self.state.player_moves(player, &mut moves);
                moves
            })
            .collect()
    }
}

/// A visitor that only reports that it was run: whether a game has a trait.
struct Probe;

impl<G: Game> ChanceVisitor<G> for Probe {
    type Output = ();
    fn visit(self)
    where
        G: Stochastic,
    {
    }
}

impl<G: Game> HiddenInformationVisitor<G> for Probe {
    type Output = ();
    fn visit(self)
    where
        G: ImperfectInformation,
    {
    }
}

impl<G: Game> SimultaneousVisitor<G> for Probe {
    type Output = ();
    fn visit(self)
    where
        G: Simultaneous,
    {
    }
}

/// What a game has beyond one player choosing at a time with everything in
/// view, and what its payoffs mean. Commands and agents refuse games by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Capabilities {
    /// Chance events: shuffles, deals, draws ([`Stochastic`]).
    pub chance: bool,
    /// Information hidden from some players ([`ImperfectInformation`]).
    pub hidden_information: bool,
    /// Players who choose at the same time and in secret ([`Simultaneous`]).
    pub simultaneous_moves: bool,
    /// What the payoffs mean.
    pub scoring: Scoring,
}

impl Capabilities {
    /// The capabilities of `G`, read from its hooks and its scoring.
    pub fn of<G: Game>() -> Capabilities {
        Capabilities {
            chance: G::with_chance(Probe).is_some(),
            hidden_information: G::with_hidden_information(Probe).is_some(),
            simultaneous_moves: G::with_simultaneous_moves(Probe).is_some(),
            scoring: G::SCORING,
        }
    }

    /// Whether the players are one team sharing a payoff.
    pub fn cooperative(&self) -> bool {
        self.scoring == Scoring::Team
    }

    /// Whether the payoffs are score margins rather than win, draw or loss.
    pub fn scored(&self) -> bool {
        self.scoring == Scoring::Margin
    }

    /// Two sides playing against each other: the games of tournaments,
    /// matches and ratings.
    pub fn competitive(&self) -> bool {
        self.scoring != Scoring::Team
    }
}
