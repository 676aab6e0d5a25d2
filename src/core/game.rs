//! The traits every game implements and every searcher relies on.
//!
//! [`Game`] is the common core: a state that knows whose turn it is, lists its
//! legal moves and plays them. The other traits add what only some games have:
//! text notation, chance events, simultaneous moves and hidden information.
//! A searcher asks for exactly the traits it needs, so it works for every game
//! that has them and no game pays for features it lacks.

use super::{GameRng, IllegalMove, MoveList, ParseError, Player, Status};
use std::fmt::Debug;
use std::hash::Hash;
use std::str::FromStr;

/// A game state: the position, whose decision is next, and the rules in force.
///
/// States are cheap to clone, and searchers explore by cloning a state and
/// calling [`play`](Game::play) on the copy.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move: small, copyable, and meaningful only in the state that listed it.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// The rules options (house rules, limits, sizes); `Default` is the standard
    /// game, and the text form is a `key=value` list such as `ply-limit=200`.
    type Rules: Clone + Debug + Default + Send + Sync + FromStr<Err = ParseError> + 'static;

    /// The game's name on the command line, e.g. `"hnefatafl"`.
    const NAME: &'static str;

    /// The starting state under `rules`. For games that start with a shuffle this
    /// is a [`Status::Chance`] state before the deal.
    fn new(rules: Self::Rules) -> Self;

    /// The rules in force.
    fn rules(&self) -> &Self::Rules;

    /// The number of players (the length of every payoff vector).
    fn num_players(&self) -> usize;

    /// The name of a player or side, e.g. `"attackers"`.
    fn player_name(&self, player: Player) -> String {
        format!("player{player}")
    }

    /// Whose decision comes next, or how the game ended.
    fn status(&self) -> Status;

    /// Replaces the contents of `moves` with the legal moves of the player to
    /// move. The list is empty when the game is over or no single player is to
    /// move (chance and simultaneous states have their own traits).
    fn legal_moves(&self, moves: &mut MoveList<Self::Move>);

    /// The number of legal moves, using `scratch` if the game needs a list to
    /// count. Perft calls this at its last ply; games that can count without
    /// listing (a popcount of destination sets) override it.
    fn count_legal_moves(&self, scratch: &mut MoveList<Self::Move>) -> usize {
        self.legal_moves(scratch);
        scratch.len()
    }

    /// Plays a move from [`legal_moves`](Game::legal_moves) without checking it.
    /// Search uses this; a move that was not listed leaves the state unspecified.
    fn play(&mut self, mv: Self::Move);

    /// Plays `mv` if it is legal, and otherwise explains why not and leaves the
    /// state unchanged. Input from users goes through here.
    fn try_play(&mut self, mv: Self::Move) -> Result<(), IllegalMove> {
        if self.status().is_over() {
            return Err(IllegalMove::new("the game is already over"));
        }
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        if !moves.contains(&mv) {
            return Err(IllegalMove::new(format!("{mv:?} is not a legal move here")));
        }
        self.play(mv);
        Ok(())
    }

    /// A Zobrist hash of everything that makes two states transpose,
    /// maintained incrementally by [`play`](Game::play).
    fn hash(&self) -> u64;

    /// The lowest and highest payoff any player can receive, so that searchers
    /// can normalise payoffs of scored games.
    fn payoff_range(&self) -> (f64, f64);

    /// The number of plies (single-player decisions) played so far.
    fn ply(&self) -> u32;
}

/// Positions and moves as text that players can read, type and share.
///
/// Parsing goes through an unvalidated setup first (each game has a `Setup`
/// type), so malformed text and impossible positions both come back as a
/// [`ParseError`] that names the problem.
pub trait Notation: Game {
    /// The position in the game's standard text form, including the side to move.
    fn position_text(&self) -> String;

    /// Parses and validates a position written by [`position_text`](Notation::position_text).
    fn from_position_text(text: &str, rules: Self::Rules) -> Result<Self, ParseError>;

    /// A move in the game's record notation, written from this (pre-move) state.
    fn move_text(&self, mv: Self::Move) -> String;

    /// Reads a move in record notation; the move must be legal in this state.
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseError>;

    /// A diagram of the position for a terminal.
    fn diagram(&self) -> String;
}

/// Games with explicit chance events (shuffles, deals, draws).
///
/// When [`Game::status`] is [`Status::Chance`], nature moves by calling
/// [`resolve_chance`](Stochastic::resolve_chance) with a seeded generator, so
/// the same seed always produces the same deal.
pub trait Stochastic: Game {
    /// Samples the pending chance event.
    fn resolve_chance(&mut self, rng: &mut GameRng);
}

/// Games in which players choose at the same time without seeing each other's choice.
///
/// When [`Game::status`] is [`Status::Simultaneous`], each player picks one of
/// its own moves and the joint choice is played at once.
pub trait Simultaneous: Game {
    /// Replaces `moves` with the choices open to `player` in this simultaneous state.
    fn player_moves(&self, player: Player, moves: &mut MoveList<Self::Move>);

    /// Plays one move per player, indexed by player.
    fn play_joint(&mut self, joint: &[Self::Move]);
}

/// Games with hidden information: each player sees only an observation.
///
/// An honest policy is given an [`Observation`](ImperfectInformation::Observation)
/// and never the state itself, so it cannot read hidden cards. To search, it
/// samples full states consistent with what it saw.
pub trait ImperfectInformation: Game {
    /// Everything one player may know: its private information and the public history.
    type Observation: Clone + Debug + Send + Sync;

    /// What `player` observes in this state.
    fn observation(&self, player: Player) -> Self::Observation;

    /// Samples a full state consistent with `observation`, uniformly where the
    /// observation's constraints allow.
    fn determinize(observation: &Self::Observation, rng: &mut GameRng) -> Self;

    /// The legal moves of the player to move, when that player is the
    /// observer: what an honest policy may choose from. They depend only on
    /// what the observer knows, so any determinization lists them; games
    /// override this with a cheaper way.
    fn observer_moves(observation: &Self::Observation, moves: &mut MoveList<Self::Move>) {
        Self::determinize(observation, &mut super::rng_from_seed(0)).legal_moves(moves);
    }
}
