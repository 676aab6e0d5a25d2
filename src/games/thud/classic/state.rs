//! The state of a classic Thud battle, its rules options and the [`Game`]
//! implementation.

use super::notation::START_POSITION;
use crate::bitboard::{Bitboard256, Direction, Square};
use crate::core::zobrist::zobrist_keys;
use crate::core::{
    Game, IllegalMove, MoveList, Outcome, ParseError, Payoffs, Player, RulesOptions, Scoring,
    Status, limit_text, parse_key_values, parse_limit, unknown_key,
};
use crate::games::thud::board::{CENTRE, STEPS, Side, square_name};
use crate::games::thud::setup::ThudSetup;
use serde::Serialize;
use std::fmt;
use std::num::NonZeroU32;
use std::str::FromStr;

/// The most dwarfs and trolls a battle has (the starting numbers).
pub const MAX_DWARFS: u32 = 32;
pub const MAX_TROLLS: u32 = 8;
/// A surviving dwarf scores 1 point, a surviving troll 4.
pub const DWARF_POINTS: i32 = 1;
pub const TROLL_POINTS: i32 = 4;

/// Which dwarfs a troll may take after a step or a shove.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TrollCaptures {
    /// All the dwarfs around the troll's new square, or (after a step) none.
    AllOrNone,
    /// Any set of them; a shove must take at least one.
    AnySubset,
}

impl TrollCaptures {
    pub const fn name(self) -> &'static str {
        match self {
            TrollCaptures::AllOrNone => "all-or-none",
            TrollCaptures::AnySubset => "any-subset",
        }
    }
}

/// The rules options of classic Thud. `Default` is the standard battle with
/// the engine's house rules: all-or-none troll captures and the two limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ThudRules {
    /// Which dwarfs a troll may take (house rule; default all or none).
    pub troll_captures: TrollCaptures,
    /// The battle ends after this many plies without a capture; `None` never.
    pub no_capture_limit: Option<NonZeroU32>,
    /// The battle ends after this many plies in all; `None` never.
    pub ply_limit: Option<NonZeroU32>,
}

impl Default for ThudRules {
    fn default() -> Self {
        ThudRules {
            troll_captures: TrollCaptures::AllOrNone,
            no_capture_limit: NonZeroU32::new(200),
            ply_limit: NonZeroU32::new(800),
        }
    }
}

impl RulesOptions for ThudRules {
    /// Any capture rule and limits make a playable battle.
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

impl FromStr for ThudRules {
    type Err = ParseError;

    /// Reads `troll-captures=all-or-none|any-subset,no-capture-limit=N|none,
    /// ply-limit=N|none`; options left out keep their defaults.
    fn from_str(text: &str) -> Result<Self, ParseError> {
        const WHAT: &str = "thud rules";
        let mut rules = ThudRules::default();
        for (key, value) in parse_key_values(text, WHAT)? {
            match key {
                "troll-captures" => {
                    rules.troll_captures = match value {
                        "all-or-none" => TrollCaptures::AllOrNone,
                        "any-subset" => TrollCaptures::AnySubset,
                        _ => {
                            return Err(ParseError::new(
                                WHAT,
                                text,
                                format!(
                                    "`troll-captures` takes all-or-none or any-subset, not `{value}`"
                                ),
                            ));
                        }
                    }
                }
                "no-capture-limit" => rules.no_capture_limit = parse_limit(WHAT, text, key, value)?,
                "ply-limit" => rules.ply_limit = parse_limit(WHAT, text, key, value)?,
                _ => {
                    return Err(unknown_key(
                        WHAT,
                        text,
                        key,
                        &["troll-captures", "no-capture-limit", "ply-limit"],
                    ));
                }
            }
        }
        Ok(rules)
    }
}

impl fmt::Display for ThudRules {
    /// The options as `key=value` text that reads back into the same rules.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "troll-captures={},no-capture-limit={},ply-limit={}",
            self.troll_captures.name(),
            limit_text(self.no_capture_limit),
            limit_text(self.ply_limit)
        )
    }
}

/// The four kinds of move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ThudMoveKind {
    /// A dwarf moves like a queen over empty squares.
    DwarfMove,
    /// A dwarf at the front of a line is thrown onto a troll and takes it.
    Hurl,
    /// A troll steps to a neighbouring empty square, taking the chosen dwarfs
    /// around its new square.
    TrollStep,
    /// The front troll of a line is pushed two or more squares and takes the
    /// chosen dwarfs around its new square (at least one).
    Shove,
}

/// A move: the piece on `from` goes to `to`; for troll moves, `captures`
/// says which neighbours of `to` lose their dwarf, one bit per direction in
/// the order of [`Direction::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ThudMove {
    pub kind: ThudMoveKind,
    pub from: Square,
    pub to: Square,
    pub captures: u8,
}

impl ThudMove {
    /// The squares whose pieces this move captures.
    pub fn captured(self) -> Bitboard256 {
        match self.kind {
            ThudMoveKind::DwarfMove => Bitboard256::EMPTY,
            ThudMoveKind::Hurl => Bitboard256::from_square(self.to),
            ThudMoveKind::TrollStep | ThudMoveKind::Shove => {
                squares_in_directions(self.to, self.captures)
            }
        }
    }

    /// The side whose piece moves.
    pub fn side(self) -> Side {
        match self.kind {
            ThudMoveKind::DwarfMove | ThudMoveKind::Hurl => Side::Dwarfs,
            ThudMoveKind::TrollStep | ThudMoveKind::Shove => Side::Trolls,
        }
    }

    /// Whether the move takes at least one piece.
    pub fn is_capture(self) -> bool {
        self.kind == ThudMoveKind::Hurl || self.captures != 0
    }
}

/// The neighbours of `square` in the directions set in `mask`.
pub(crate) fn squares_in_directions(square: Square, mask: u8) -> Bitboard256 {
    let mut squares = Bitboard256::EMPTY;
    for direction in Direction::ALL {
        if mask >> direction.index() & 1 == 0 {
            continue;
        }
        if let Some(neighbour) = STEPS.neighbour(square, direction) {
            squares = squares.with(neighbour);
        }
    }
    squares
}

/// The directions (as a mask) in which the squares of `set` lie next to `square`.
pub(crate) fn directions_of(square: Square, set: Bitboard256) -> u8 {
    let mut mask = 0;
    for direction in Direction::ALL {
        if STEPS
            .neighbour(square, direction)
            .is_some_and(|n| set.contains(n))
        {
            mask |= 1 << direction.index();
        }
    }
    mask
}

impl fmt::Display for ThudMove {
    /// The move in record notation, e.g. `dA6-D6`, `dE7-G7xG7`, `TH7-H6xG5xH5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let piece = match self.side() {
            Side::Dwarfs => 'd',
            Side::Trolls => 'T',
        };
        write!(
            f,
            "{piece}{}-{}",
            square_name(self.from),
            square_name(self.to)
        )?;
        for captured in self.captured().squares() {
            write!(f, "x{}", square_name(captured))?;
        }
        Ok(())
    }
}

/// Why a battle ended. Every end is scored the same way, by the margin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// The side to move had no legal move.
    NoMoves,
    /// The limit of plies without a capture was reached.
    NoCaptureLimit,
    /// The total ply limit was reached.
    PlyLimit,
}

impl EndReason {
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::NoMoves => "no-moves",
            EndReason::NoCaptureLimit => "no-capture-limit",
            EndReason::PlyLimit => "ply-limit",
        }
    }
}

/// Zobrist keys: one per (piece kind, square) and one for "trolls to move".
static KEYS: [u64; 2 * 256 + 1] = zobrist_keys(0x6e6f_726e_7468_7564);
const TROLL_KEYS: usize = 256;
const SIDE_KEY: usize = 2 * 256;

#[inline]
pub(crate) fn dwarf_key(square: Square) -> u64 {
    KEYS[square.index()]
}

#[inline]
pub(crate) fn troll_key(square: Square) -> u64 {
    KEYS[TROLL_KEYS + square.index()]
}

#[inline]
pub(crate) fn side_key() -> u64 {
    KEYS[SIDE_KEY]
}

/// A position of a classic Thud battle with its ply counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thud {
    pub(crate) dwarfs: Bitboard256,
    pub(crate) trolls: Bitboard256,
    pub(crate) to_move: Side,
    pub(crate) ply: u32,
    pub(crate) quiet_plies: u32,
    pub(crate) hash: u64,
    pub(crate) rules: ThudRules,
    pub(crate) ending: Option<EndReason>,
}

impl Thud {
    /// The standard starting position, dwarfs to move.
    pub fn start(rules: ThudRules) -> Thud {
        let setup: ThudSetup = START_POSITION.parse().expect("the start position is valid");
        Thud::from_setup(&setup, rules).expect("the start position is valid")
    }

    /// A validated state from an unvalidated setup: at most 32 dwarfs and 8
    /// trolls, and the Thudstone on `H8`.
    pub fn from_setup(setup: &ThudSetup, rules: ThudRules) -> Result<Thud, ParseError> {
        let rock = setup.check_counts(MAX_DWARFS, MAX_TROLLS)?;
        if rock != CENTRE {
            return Err(ParseError::new(
                "position",
                &setup.to_string(),
                format!(
                    "the Thudstone (R) must stand on H8, not on {}",
                    square_name(rock)
                ),
            ));
        }
        let mut state = Thud {
            dwarfs: setup.dwarfs,
            trolls: setup.trolls,
            to_move: setup.to_move,
            ply: setup.ply,
            quiet_plies: setup.quiet_plies,
            hash: 0,
            rules,
            ending: None,
        };
        state.hash = state.hash_from_scratch();
        state.ending = state.ending_now();
        Ok(state)
    }

    /// The unvalidated setup of this position.
    pub fn setup(&self) -> ThudSetup {
        ThudSetup {
            dwarfs: self.dwarfs,
            trolls: self.trolls,
            rock: Some(CENTRE),
            to_move: self.to_move,
            quiet_plies: self.quiet_plies,
            ply: self.ply,
        }
    }

    pub fn dwarfs(&self) -> Bitboard256 {
        self.dwarfs
    }

    pub fn trolls(&self) -> Bitboard256 {
        self.trolls
    }

    pub fn side_to_move(&self) -> Side {
        self.to_move
    }

    /// Plies since the last capture.
    pub fn quiet_plies(&self) -> u32 {
        self.quiet_plies
    }

    /// Why the battle ended, if it has.
    pub fn ending(&self) -> Option<EndReason> {
        self.ending
    }

    /// Every square a piece cannot move onto or through: the pieces and the Thudstone.
    #[inline]
    pub fn occupied(&self) -> Bitboard256 {
        (self.dwarfs | self.trolls).with(CENTRE)
    }

    /// The dwarfs' points minus the trolls' points on the board now.
    pub fn margin(&self) -> i32 {
        self.dwarfs.count() as i32 * DWARF_POINTS - self.trolls.count() as i32 * TROLL_POINTS
    }

    /// The hash computed from the pieces alone, without incremental updates.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut hash = 0;
        for square in self.dwarfs.squares() {
            hash ^= dwarf_key(square);
        }
        for square in self.trolls.squares() {
            hash ^= troll_key(square);
        }
        if self.to_move == Side::Trolls {
            hash ^= side_key();
        }
        hash
    }

    /// The end that applies to the position as it stands: no legal move for
    /// the side to move, then the two limits.
    pub(crate) fn ending_now(&self) -> Option<EndReason> {
        if !self.has_legal_move() {
            return Some(EndReason::NoMoves);
        }
        if self
            .rules
            .no_capture_limit
            .is_some_and(|limit| self.quiet_plies >= limit.get())
        {
            return Some(EndReason::NoCaptureLimit);
        }
        if self
            .rules
            .ply_limit
            .is_some_and(|limit| self.ply >= limit.get())
        {
            return Some(EndReason::PlyLimit);
        }
        None
    }

    /// The outcome of a finished battle: the margin for the dwarfs, its
    /// negation for the trolls.
    fn outcome(&self, reason: EndReason) -> Outcome {
        let margin = f64::from(self.margin());
        Outcome {
            // `0.0 - margin` keeps a drawn battle at +0 for both sides.
            payoffs: Payoffs::from_slice(&[margin, 0.0 - margin]),
            reason: reason.name(),
        }
    }
}

impl Game for Thud {
    type Move = ThudMove;
    type Rules = ThudRules;

    const NAME: &'static str = "thud";
    const SCORING: Scoring = Scoring::Margin;

    fn new(rules: ThudRules) -> Self {
        Thud::start(rules)
    }

    fn rules(&self) -> &ThudRules {
        &self.rules
    }

    fn num_players(&self) -> usize {
        2
    }

    fn player_name(&self, player: Player) -> String {
        Side::from_player(player).name().to_string()
    }

    fn status(&self) -> Status {
        match self.ending {
            Some(reason) => Status::Over(self.outcome(reason)),
            None => Status::ToMove(self.to_move.player()),
        }
    }

    fn legal_moves(&self, moves: &mut MoveList<ThudMove>) {
        moves.clear();
        if self.ending.is_none() {
            self.generate_moves(moves);
        }
    }

    fn count_legal_moves(&self, _scratch: &mut MoveList<ThudMove>) -> usize {
        if self.ending.is_some() {
            return 0;
        }
        self.count_moves()
    }

    fn play(&mut self, mv: ThudMove) {
        self.apply(mv);
        self.ending = self.ending_now();
    }

    /// `Ok` if `mv` is legal here, and otherwise why it is not.
    fn check_move(&self, mv: ThudMove) -> Result<(), IllegalMove> {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        if moves.contains(&mv) {
            return Ok(());
        }
        Err(IllegalMove::new(self.explain_illegal(
            mv.side(),
            mv.from,
            mv.to,
            mv.captured(),
        )))
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    /// From all 8 trolls and no dwarf left (-32) to all 32 dwarfs and no troll (+32).
    fn payoff_range(&self) -> (f64, f64) {
        let extreme = f64::from(MAX_TROLLS as i32 * TROLL_POINTS).max(f64::from(MAX_DWARFS));
        (-extreme, extreme)
    }

    fn ply(&self) -> u32 {
        self.ply
    }
}
