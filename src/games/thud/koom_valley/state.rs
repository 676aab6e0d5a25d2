//! The state of a Koom Valley Thud game, its rules options and the [`Game`]
//! implementation.

use super::notation::START_POSITION;
use crate::bitboard::{Bitboard256, Direction, Square};
use crate::core::zobrist::zobrist_keys;
use crate::core::{
    Game, IllegalMove, MoveList, Outcome, ParseError, Payoffs, Player, RulesOptions, Scoring,
    Status, limit_text, parse_key_values, parse_limit, unknown_key,
};
use crate::games::thud::board::{ADJACENT, STEPS, Side, square_at, square_name};
use crate::games::thud::setup::ThudSetup;
use serde::Serialize;
use std::fmt;
use std::num::NonZeroU32;
use std::str::FromStr;

/// The most dwarfs and trolls a game has (the starting numbers).
pub const MAX_DWARFS: u32 = 16;
pub const MAX_TROLLS: u32 = 8;

/// The dwarfs' goal: the five squares of rank 1, `F1` to `K1`.
pub const GOAL: Bitboard256 = Bitboard256::from_squares(&[
    square_at(0, 5),
    square_at(0, 6),
    square_at(0, 7),
    square_at(0, 8),
    square_at(0, 9),
]);

/// The trolls win when this many of them stand next to the Rock after a troll move.
pub const TROLLS_AROUND_ROCK: u32 = 3;

/// The rules options of Koom Valley Thud. `Default` is the standard game
/// with the engine's draw rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct KoomValleyRules {
    /// The game is drawn after this many plies without a capture or a Rock
    /// move; `None` never.
    pub no_capture_limit: Option<NonZeroU32>,
    /// The game is drawn after this many plies in all; `None` never.
    pub ply_limit: Option<NonZeroU32>,
}

impl Default for KoomValleyRules {
    fn default() -> Self {
        KoomValleyRules {
            no_capture_limit: NonZeroU32::new(100),
            ply_limit: NonZeroU32::new(400),
        }
    }
}

impl RulesOptions for KoomValleyRules {
    /// Any limits make a playable game.
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

impl FromStr for KoomValleyRules {
    type Err = ParseError;

    /// Reads `no-capture-limit=N|none,ply-limit=N|none`; options left out
    /// keep their defaults.
    fn from_str(text: &str) -> Result<Self, ParseError> {
        const WHAT: &str = "koom-valley rules";
        let mut rules = KoomValleyRules::default();
        for (key, value) in parse_key_values(text, WHAT)? {
            match key {
                "no-capture-limit" => rules.no_capture_limit = parse_limit(WHAT, text, key, value)?,
                "ply-limit" => rules.ply_limit = parse_limit(WHAT, text, key, value)?,
                _ => {
                    return Err(unknown_key(
                        WHAT,
                        text,
                        key,
                        &["no-capture-limit", "ply-limit"],
                    ));
                }
            }
        }
        Ok(rules)
    }
}

impl fmt::Display for KoomValleyRules {
    /// The options as `key=value` text that reads back into the same rules.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no-capture-limit={},ply-limit={}",
            limit_text(self.no_capture_limit),
            limit_text(self.ply_limit)
        )
    }
}

/// The four kinds of move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KoomValleyMoveKind {
    /// A dwarf moves like a queen; trolls it traps against other dwarfs are captured.
    DwarfMove,
    /// The dwarfs push the Rock one square.
    RockMove,
    /// A troll moves one to three squares in a line.
    TrollMove,
    /// A troll jumps over one or more dwarfs, capturing each.
    Trample,
}

/// A move: the piece on `from` ends on `to`. A trample also records the
/// direction of each jump, so that its path can be written and its victims
/// found without the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KoomValleyMove {
    pub kind: KoomValleyMoveKind,
    pub from: Square,
    pub to: Square,
    /// The jump directions of a trample, three bits each, first jump lowest.
    jumps: u64,
    jump_count: u8,
}

/// Bits per jump direction in [`KoomValleyMove::jumps`].
const JUMP_BITS: u32 = 3;
/// The most jumps a move can record; more than the dwarfs a game can have.
pub(crate) const MAX_JUMPS: u8 = (u64::BITS / JUMP_BITS) as u8;

impl KoomValleyMove {
    /// A move without jumps (every kind except a trample).
    pub(crate) const fn simple(kind: KoomValleyMoveKind, from: Square, to: Square) -> Self {
        KoomValleyMove {
            kind,
            from,
            to,
            jumps: 0,
            jump_count: 0,
        }
    }

    /// A trample from `from` ending on `to` after the jumps recorded in `jumps`.
    pub(crate) const fn trample(from: Square, to: Square, jumps: u64, jump_count: u8) -> Self {
        KoomValleyMove {
            kind: KoomValleyMoveKind::Trample,
            from,
            to,
            jumps,
            jump_count,
        }
    }

    /// `jumps` with one more jump towards `direction` after `count` jumps.
    pub(crate) const fn add_jump(jumps: u64, count: u8, direction: Direction) -> u64 {
        jumps | (direction.index() as u64) << (count as u32 * JUMP_BITS)
    }

    /// The directions of a trample's jumps, in order (none for other moves).
    pub fn jumps(self) -> impl Iterator<Item = Direction> {
        (0..u32::from(self.jump_count))
            .map(move |i| Direction::ALL[(self.jumps >> (i * JUMP_BITS) & 0b111) as usize])
    }

    /// The squares the piece lands on, in order: every landing of a
    /// trample, or just `to`.
    pub fn landings(self) -> Vec<Square> {
        if self.kind != KoomValleyMoveKind::Trample {
            return vec![self.to];
        }
        let mut at = self.from;
        self.jumps()
            .map(|direction| {
                at = jump_landing(at, direction);
                at
            })
            .collect()
    }

    /// The dwarfs a trample jumps over, in order (empty for other moves).
    pub fn trampled(self) -> Vec<Square> {
        let mut at = self.from;
        self.jumps()
            .map(|direction| {
                let over = STEPS
                    .neighbour(at, direction)
                    .expect("a jump stays on the board");
                at = jump_landing(at, direction);
                over
            })
            .collect()
    }

    /// The side whose turn it is when this move is played.
    pub fn side(self) -> Side {
        match self.kind {
            KoomValleyMoveKind::DwarfMove | KoomValleyMoveKind::RockMove => Side::Dwarfs,
            KoomValleyMoveKind::TrollMove | KoomValleyMoveKind::Trample => Side::Trolls,
        }
    }
}

/// Where a jump from `at` towards `direction` lands.
fn jump_landing(at: Square, direction: Direction) -> Square {
    STEPS
        .neighbour(at, direction)
        .and_then(|over| STEPS.neighbour(over, direction))
        .expect("a jump stays on the board")
}

impl fmt::Display for KoomValleyMove {
    /// The move without the captures of a dwarf move (those need the
    /// position; see [`Notation::move_text`](crate::core::Notation::move_text)):
    /// `dA10-D10`, `RH8-H7`, `TF2-F5`, `TF3-F5-H5xF4xG5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let piece = match self.kind {
            KoomValleyMoveKind::DwarfMove => 'd',
            KoomValleyMoveKind::RockMove => 'R',
            KoomValleyMoveKind::TrollMove | KoomValleyMoveKind::Trample => 'T',
        };
        write!(f, "{piece}{}", square_name(self.from))?;
        for landing in self.landings() {
            write!(f, "-{}", square_name(landing))?;
        }
        for over in self.trampled() {
            write!(f, "x{}", square_name(over))?;
        }
        Ok(())
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// The Rock reached a goal square (dwarfs win).
    RockHome,
    /// Three trolls stood next to the Rock after a troll move (trolls win).
    RockSurrounded,
    /// The side to move had no legal move and lost.
    NoMoves,
    /// The limit of plies without a capture or Rock move was reached (draw).
    NoCaptureLimit,
    /// The total ply limit was reached (draw).
    PlyLimit,
}

impl EndReason {
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::RockHome => "rock-home",
            EndReason::RockSurrounded => "rock-surrounded",
            EndReason::NoMoves => "no-moves",
            EndReason::NoCaptureLimit => "no-capture-limit",
            EndReason::PlyLimit => "ply-limit",
        }
    }
}

/// The end of a game: who won (`None` for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    pub winner: Option<Side>,
    pub reason: EndReason,
}

/// Zobrist keys: one per (piece kind, square) and one for "trolls to move".
static KEYS: [u64; 3 * 256 + 1] = zobrist_keys(0x6e6f_726e_6b6f_6f6d);

#[inline]
pub(crate) fn dwarf_key(square: Square) -> u64 {
    KEYS[square.index()]
}

#[inline]
pub(crate) fn troll_key(square: Square) -> u64 {
    KEYS[256 + square.index()]
}

#[inline]
pub(crate) fn rock_key(square: Square) -> u64 {
    KEYS[2 * 256 + square.index()]
}

#[inline]
pub(crate) fn side_key() -> u64 {
    KEYS[3 * 256]
}

/// A position of Koom Valley Thud with its ply counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KoomValley {
    pub(crate) dwarfs: Bitboard256,
    pub(crate) trolls: Bitboard256,
    pub(crate) rock: Square,
    pub(crate) to_move: Side,
    pub(crate) ply: u32,
    /// Plies since the last capture or Rock move.
    pub(crate) quiet_plies: u32,
    pub(crate) hash: u64,
    pub(crate) rules: KoomValleyRules,
    pub(crate) ending: Option<Ending>,
}

impl KoomValley {
    /// The starting position, dwarfs to move.
    pub fn start(rules: KoomValleyRules) -> KoomValley {
        let setup: ThudSetup = START_POSITION.parse().expect("the start position is valid");
        KoomValley::from_setup(&setup, rules).expect("the start position is valid")
    }

    /// A validated state from an unvalidated setup: at most 16 dwarfs and 8
    /// trolls, and the Rock on the board.
    pub fn from_setup(setup: &ThudSetup, rules: KoomValleyRules) -> Result<KoomValley, ParseError> {
        let rock = setup.check_counts(MAX_DWARFS, MAX_TROLLS)?;
        let mut state = KoomValley {
            dwarfs: setup.dwarfs,
            trolls: setup.trolls,
            rock,
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
            rock: Some(self.rock),
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

    pub fn rock(&self) -> Square {
        self.rock
    }

    pub fn side_to_move(&self) -> Side {
        self.to_move
    }

    /// Plies since the last capture or Rock move.
    pub fn quiet_plies(&self) -> u32 {
        self.quiet_plies
    }

    /// How the game ended, if it has.
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// Every square a piece cannot move onto or through.
    #[inline]
    pub fn occupied(&self) -> Bitboard256 {
        (self.dwarfs | self.trolls).with(self.rock)
    }

    /// The trolls standing next to the Rock.
    #[inline]
    pub fn trolls_around_rock(&self) -> Bitboard256 {
        ADJACENT.targets(self.rock) & self.trolls
    }

    /// The hash computed from the pieces alone, without incremental updates.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut hash = rock_key(self.rock);
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

    /// The end that applies to the position as it stands, in order of
    /// precedence: the Rock home, the Rock surrounded just after a troll
    /// move (the dwarfs are to move), no legal move, then the draw limits.
    pub(crate) fn ending_now(&self) -> Option<Ending> {
        let win = |side: Side, reason| {
            Some(Ending {
                winner: Some(side),
                reason,
            })
        };
        let draw = |reason| {
            Some(Ending {
                winner: None,
                reason,
            })
        };
        if GOAL.contains(self.rock) {
            return win(Side::Dwarfs, EndReason::RockHome);
        }
        if self.to_move == Side::Dwarfs && self.trolls_around_rock().count() >= TROLLS_AROUND_ROCK {
            return win(Side::Trolls, EndReason::RockSurrounded);
        }
        if !self.has_legal_move() {
            return win(self.to_move.opponent(), EndReason::NoMoves);
        }
        if self
            .rules
            .no_capture_limit
            .is_some_and(|limit| self.quiet_plies >= limit.get())
        {
            return draw(EndReason::NoCaptureLimit);
        }
        if self
            .rules
            .ply_limit
            .is_some_and(|limit| self.ply >= limit.get())
        {
            return draw(EndReason::PlyLimit);
        }
        None
    }

    fn outcome(ending: Ending) -> Outcome {
        let payoffs = match ending.winner {
            Some(side) => Payoffs::win_for(side.player()),
            None => Payoffs::shared(2, 0.0),
        };
        Outcome {
            payoffs,
            reason: ending.reason.name(),
        }
    }
}

impl Game for KoomValley {
    type Move = KoomValleyMove;
    type Rules = KoomValleyRules;

    const NAME: &'static str = "koom-valley";
    const SCORING: Scoring = Scoring::WinLoss;

    fn new(rules: KoomValleyRules) -> Self {
        KoomValley::start(rules)
    }

    fn rules(&self) -> &KoomValleyRules {
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
            Some(ending) => Status::Over(KoomValley::outcome(ending)),
            None => Status::ToMove(self.to_move.player()),
        }
    }

    fn legal_moves(&self, moves: &mut MoveList<KoomValleyMove>) {
        moves.clear();
        if self.ending.is_none() {
            self.generate_moves(moves);
        }
    }

    fn count_legal_moves(&self, _scratch: &mut MoveList<KoomValleyMove>) -> usize {
        if self.ending.is_some() {
            return 0;
        }
        self.count_moves()
    }

    fn play(&mut self, mv: KoomValleyMove) {
        self.apply(mv);
        self.ending = self.ending_now();
    }

    /// `Ok` if `mv` is legal here, and otherwise why it is not.
    fn check_move(&self, mv: KoomValleyMove) -> Result<(), IllegalMove> {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        if moves.contains(&mv) {
            return Ok(());
        }
        let mut path = vec![mv.from];
        path.extend(mv.landings());
        let piece = match mv.kind {
            KoomValleyMoveKind::DwarfMove => crate::games::thud::Piece::Dwarf,
            KoomValleyMoveKind::RockMove => crate::games::thud::Piece::Rock,
            _ => crate::games::thud::Piece::Troll,
        };
        Err(IllegalMove::new(self.explain_illegal(piece, &path, None)))
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn payoff_range(&self) -> (f64, f64) {
        (-1.0, 1.0)
    }

    fn ply(&self) -> u32 {
        self.ply
    }
}
