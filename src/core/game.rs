//! The traits every game implements and every searcher relies on.
//!
//! [`Game`] is the common core: a state that knows whose turn it is, lists its
//! legal moves and plays them. The other traits add what only some games have:
//! text notation, chance events, simultaneous moves and hidden information.
//! A searcher asks for exactly the traits it needs, so it works for every game
//! that has them and no game pays for features it lacks.

use super::capability::{ChanceVisitor, HiddenInformationVisitor, Scoring, SimultaneousVisitor};
use super::{
    GameRng, IllegalMove, MoveList, ParseError, Picture, Player, Ply, PlyText, RulesOptions, Setup,
    Status,
};
use std::fmt::{self, Debug};
use std::hash::Hash;

/// A game state: the position, whose decision is next, and the rules in force.
///
/// States are cheap to clone, and searchers explore by cloning a state and
/// calling [`play`](Game::play) on the copy.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move: small, copyable, and meaningful only in the state that listed it.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// The rules options (house rules, limits, sizes); `Default` is the standard
    /// game, and the text form (read by `FromStr`, written by `Display`) is a
    /// `key=value` list such as `ply-limit=200`.
    type Rules: RulesOptions;

    /// The game's name on the command line, e.g. `"hnefatafl"`.
    const NAME: &'static str;

    /// What the payoffs mean: a win or loss, a score margin, or a team result.
    const SCORING: Scoring;

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

    /// `Ok` if `mv` is a legal move of the player to move, and otherwise why
    /// not. The default looks the move up in the legal moves; games override
    /// it to explain a refusal in the terms of their rules.
    fn check_move(&self, mv: Self::Move) -> Result<(), IllegalMove> {
        if self.status().is_over() {
            return Err(IllegalMove::new("the game is already over"));
        }
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        if moves.contains(&mv) {
            Ok(())
        } else {
            Err(IllegalMove::new(format!("{mv:?} is not a legal move here")))
        }
    }

    /// Plays `mv` if it is legal, and otherwise explains why not and leaves the
    /// state unchanged. Input from users goes through here.
    fn try_play(&mut self, mv: Self::Move) -> Result<(), IllegalMove> {
        self.check_move(mv)?;
        self.play(mv);
        Ok(())
    }

    /// `Ok` if a ply (one move, or every player's move at a simultaneous
    /// state) is legal here, and otherwise why not.
    fn check_ply(&self, ply: &Ply<Self::Move>) -> Result<(), IllegalMove> {
        match ply {
            Ply::Move(mv) => self.check_move(*mv),
            Ply::Joint(joint) => Self::with_simultaneous_moves(CheckJoint { state: self, joint })
                .unwrap_or_else(|| {
                    Err(IllegalMove::new(
                        "a joint move, but the players of this game move one at a time",
                    ))
                }),
        }
    }

    /// Plays a ply without checking it, as [`play`](Game::play) does a move.
    ///
    /// # Panics
    /// On a joint ply in a game without simultaneous moves: such a ply never
    /// comes from the game's own move lists.
    fn play_ply(&mut self, ply: &Ply<Self::Move>) {
        match ply {
            Ply::Move(mv) => self.play(*mv),
            Ply::Joint(joint) => Self::with_simultaneous_moves(PlayJoint { state: self, joint })
                .expect("a joint ply is played only in a game with simultaneous moves"),
        }
    }

    /// Plays a ply if it is legal, and otherwise explains why not and leaves
    /// the state unchanged.
    fn try_play_ply(&mut self, ply: &Ply<Self::Move>) -> Result<(), IllegalMove> {
        self.check_ply(ply)?;
        self.play_ply(ply);
        Ok(())
    }

    /// A Zobrist hash of everything that makes two states transpose,
    /// maintained incrementally by [`play`](Game::play).
    fn hash(&self) -> u64;

    /// A key of what the rules remember beyond the position that can still
    /// change how the game ends from here: the positions a repetition rule
    /// counts, a move counter towards a draw. `0` (the default) for games
    /// whose future depends on the position alone. Two states with equal
    /// [`hash`](Game::hash) and equal history keys have the same future;
    /// searchers that share results between transposed positions (the
    /// alpha-beta table) key them by both.
    fn history_key(&self) -> u64 {
        0
    }

    /// The lowest and highest payoff any player can receive, so that searchers
    /// can normalise payoffs of scored games. The default follows
    /// [`SCORING`](Game::SCORING): `(-1, 1)` for [`Scoring::WinLoss`],
    /// `(0, 1)` for a [`Scoring::Team`]'s shared result (failure to
    /// success). A game scored by [`Scoring::Margin`] overrides it with its
    /// largest margin: the conformance suite refuses payoffs outside the range.
    fn payoff_range(&self) -> (f64, f64) {
        match Self::SCORING {
            Scoring::WinLoss | Scoring::Margin => (-1.0, 1.0),
            Scoring::Team => (0.0, 1.0),
        }
    }

    /// The number of plies played so far: single-player decisions and joint
    /// moves each count one.
    fn ply(&self) -> u32;

    /// Runs `visitor` with [`Stochastic`] available, if this game has chance
    /// events; `None` if it has none. Games that implement [`Stochastic`]
    /// override this with `Some(visitor.visit())`.
    fn with_chance<V: ChanceVisitor<Self>>(_visitor: V) -> Option<V::Output> {
        None
    }

    /// Runs `visitor` with [`ImperfectInformation`] available, if this game
    /// hides information from its players; `None` otherwise. Games that
    /// implement [`ImperfectInformation`] override this with
    /// `Some(visitor.visit())`.
    fn with_hidden_information<V: HiddenInformationVisitor<Self>>(
        _visitor: V,
    ) -> Option<V::Output> {
        None
    }

    /// Runs `visitor` with [`Simultaneous`] available, if this game has
    /// simultaneous moves; `None` otherwise. Games that implement
    /// [`Simultaneous`] override this with `Some(visitor.visit())`.
    fn with_simultaneous_moves<V: SimultaneousVisitor<Self>>(_visitor: V) -> Option<V::Output> {
        None
    }
}

/// [`Game::check_ply`] for a joint ply.
struct CheckJoint<'a, G: Game> {
    state: &'a G,
    joint: &'a [G::Move],
}

impl<G: Game> SimultaneousVisitor<G> for CheckJoint<'_, G> {
    type Output = Result<(), IllegalMove>;

    fn visit(self) -> Self::Output
    where
        G: Simultaneous,
    {
        self.state.check_joint(self.joint)
    }
}

/// [`Game::play_ply`] for a joint ply.
struct PlayJoint<'a, G: Game> {
    state: &'a mut G,
    joint: &'a [G::Move],
}

impl<G: Game> SimultaneousVisitor<G> for PlayJoint<'_, G> {
    type Output = ();

    fn visit(self)
    where
        G: Simultaneous,
    {
        self.state.play_joint(self.joint);
    }
}

/// Positions and moves as text that players can read, type and share.
///
/// A position is read in two steps, the same for every game: its text into
/// the game's [`Setup`](Notation::Setup), which checks only the text, then
/// [`from_setup`](Notation::from_setup), which checks the setup against the
/// rules. Malformed text and impossible positions both come back as a
/// [`ParseError`] that names the problem.
pub trait Notation: Game {
    /// A position (or a deal) as written, before the rules check it.
    type Setup: Setup;

    /// The state of `setup` under `rules`, or what makes the position
    /// impossible under them.
    fn from_setup(setup: &Self::Setup, rules: Self::Rules) -> Result<Self, ParseError>;

    /// This position as written: [`from_setup`](Notation::from_setup) reads
    /// it back as a state with the same position.
    fn setup(&self) -> Self::Setup;

    /// The position in the game's standard text form, including the side to
    /// move: the text of its [`setup`](Notation::setup).
    fn position_text(&self) -> String {
        self.setup().to_string()
    }

    /// Parses and validates a position written by
    /// [`position_text`](Notation::position_text): the text read as a
    /// [`Setup`](Notation::Setup), then [`from_setup`](Notation::from_setup).
    fn from_position_text(text: &str, rules: Self::Rules) -> Result<Self, ParseError> {
        Self::from_setup(&text.parse()?, rules)
    }

    /// A move in the game's record notation, written from this (pre-move) state.
    fn move_text(&self, mv: Self::Move) -> String;

    /// Reads a move in record notation; the move must be legal in this state.
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseError>;

    /// A diagram of the position for a terminal.
    fn diagram(&self) -> String;

    /// The position drawn, for `norn show --svg` and the game viewer of
    /// `norn view`. Every position under the same rules must give a
    /// picture of the same layout ([`Picture::same_layout`]), so that a
    /// replay changes only the slots a ply changed. By default, the
    /// [`diagram`](Notation::diagram) as text.
    fn picture(&self) -> Picture {
        Picture::of_text(&self.diagram())
    }

    /// A ply as text, written from this (pre-ply) state: the move's text, or
    /// one text per player for a joint move.
    fn ply_text(&self, ply: &Ply<Self::Move>) -> PlyText {
        match ply {
            Ply::Move(mv) => PlyText::Move(self.move_text(*mv)),
            Ply::Joint(joint) => {
                PlyText::Joint(joint.iter().map(|&mv| self.move_text(mv)).collect())
            }
        }
    }

    /// Reads a ply written by [`ply_text`](Notation::ply_text); it must be
    /// legal in this state. At a simultaneous state, [`parse_move`](Notation::parse_move)
    /// reads a move any player could choose, and each player's move must be
    /// one of [`Simultaneous::player_moves`].
    fn parse_ply(&self, text: &PlyText) -> Result<Ply<Self::Move>, ParseError> {
        match text {
            PlyText::Move(text) => self.parse_move(text).map(Ply::Move),
            PlyText::Joint(texts) => {
                let joint = texts
                    .iter()
                    .map(|text| self.parse_move(text))
                    .collect::<Result<Vec<_>, _>>()?;
                let ply = Ply::Joint(joint);
                self.check_ply(&ply).map_err(|illegal| {
                    ParseError::new("joint move", &texts.join(" "), illegal.reason())
                })?;
                Ok(ply)
            }
        }
    }

    /// The game's built-in opening set, as the text of an openings file
    /// (`norn::arena::parse_openings`), if it has one: where tournaments
    /// and matches start their colour-swapped pairs unless told otherwise,
    /// in the library (`Openings::BuiltIn`, the default) as on the command
    /// line. The sets are files under `openings/`, made by the procedure in
    /// `tests/suite/openings.rs`.
    fn default_openings() -> Option<&'static str> {
        None
    }

    /// The built-in opening set of the game under `rules`: the game's own
    /// ([`Notation::default_openings`]), unless the game keeps one set per
    /// variant of its rules (the tafl family: one per board and rules).
    fn openings_for(_rules: &Self::Rules) -> Option<&'static str> {
        Self::default_openings()
    }
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
/// its own moves and the joint choice is played at once, as one ply. A game
/// may mix such states with ordinary ones where one player is to move.
pub trait Simultaneous: Game {
    /// Replaces `moves` with the choices open to `player` in this
    /// simultaneous state (empty in any other state).
    fn player_moves(&self, player: Player, moves: &mut MoveList<Self::Move>);

    /// Plays one move per player, indexed by player, without checking them.
    fn play_joint(&mut self, joint: &[Self::Move]);

    /// `Ok` if `joint` holds one legal move per player, and otherwise why not.
    fn check_joint(&self, joint: &[Self::Move]) -> Result<(), IllegalMove> {
        if self.status() != Status::Simultaneous {
            return Err(IllegalMove::new(
                "a joint move, but the players do not choose simultaneously here",
            ));
        }
        if joint.len() != self.num_players() {
            return Err(IllegalMove::new(format!(
                "a joint move has one move per player ({}), not {}",
                self.num_players(),
                joint.len()
            )));
        }
        let mut moves = MoveList::new();
        for (player, mv) in joint.iter().enumerate() {
            self.player_moves(player, &mut moves);
            if !moves.contains(mv) {
                return Err(IllegalMove::new(format!(
                    "{mv:?} is not a legal choice of the {}",
                    self.player_name(player)
                )));
            }
        }
        Ok(())
    }

    /// Plays `joint` if every player's move is legal, and otherwise explains
    /// why not and leaves the state unchanged.
    fn try_play_joint(&mut self, joint: &[Self::Move]) -> Result<(), IllegalMove> {
        self.check_joint(joint)?;
        self.play_joint(joint);
        Ok(())
    }
}

/// Games with hidden information: each player sees only an observation.
///
/// An honest policy is given an [`Observation`](ImperfectInformation::Observation)
/// and never the state itself, so it cannot read hidden cards. To search, it
/// samples full states consistent with what it saw.
pub trait ImperfectInformation: Game {
    /// Everything one player may know: its private information and the
    /// public history. Its `Display` is the text a person reads (what
    /// learning code's observation strings show), from the player's view
    /// alone.
    type Observation: Clone + Debug + fmt::Display + PartialEq + Send + Sync;

    /// What `player` observes in this state.
    fn observation(&self, player: Player) -> Self::Observation;

    /// What every player knows of this state, as text: the public part of
    /// the observations, with no player's private information.
    fn public_observation_text(&self) -> String;

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
