//! The game state, its rules options and the [`Game`] implementation.

use super::board::{CORNERS, EDGE, RESTRICTED, Side, THRONE, square_name};
use super::notation::{HnefataflSetup, START_POSITION};
use crate::bitboard::{Bitboard128, Square};
use crate::core::zobrist::zobrist_keys;
use crate::core::{
    Game, IllegalMove, MoveList, Outcome, ParseError, Payoffs, Player, RulesOptions, Scoring,
    Status, limit_text, parse_key_values, parse_limit, parse_switch, switch_text, unknown_key,
};
use serde::Serialize;
use smallvec::SmallVec;
use std::fmt;
use std::num::NonZeroU32;
use std::str::FromStr;

/// The rules options of Copenhagen Hnefatafl. `Default` is the standard game
/// with the engine's ply limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct HnefataflRules {
    /// The defenders lose when a position (board and side to move) occurs for
    /// the third time (Copenhagen: perpetual repetition is a loss for white).
    pub repetition_loses: bool,
    /// The game is drawn after this many plies; `None` plays on forever.
    pub ply_limit: Option<NonZeroU32>,
}

impl Default for HnefataflRules {
    fn default() -> Self {
        HnefataflRules {
            repetition_loses: true,
            ply_limit: NonZeroU32::new(400),
        }
    }
}

impl RulesOptions for HnefataflRules {
    /// Any repetition switch and ply limit make a playable game.
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

impl FromStr for HnefataflRules {
    type Err = ParseError;

    /// Reads `repetition=on|off,ply-limit=N|none`; options left out keep their defaults.
    fn from_str(text: &str) -> Result<Self, ParseError> {
        const WHAT: &str = "hnefatafl rules";
        let mut rules = HnefataflRules::default();
        for (key, value) in parse_key_values(text, WHAT)? {
            match key {
                "repetition" => rules.repetition_loses = parse_switch(WHAT, text, key, value)?,
                "ply-limit" => rules.ply_limit = parse_limit(WHAT, text, key, value)?,
                _ => return Err(unknown_key(WHAT, text, key, &["repetition", "ply-limit"])),
            }
        }
        Ok(rules)
    }
}

impl fmt::Display for HnefataflRules {
    /// The options as `key=value` text that reads back into the same rules.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "repetition={},ply-limit={}",
            switch_text(self.repetition_loses),
            limit_text(self.ply_limit)
        )
    }
}

/// A move: the piece on `from` slides to `to` along a rank or file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HnefataflMove {
    pub from: Square,
    pub to: Square,
}

impl fmt::Display for HnefataflMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", square_name(self.from), square_name(self.to))
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// The king reached a corner.
    Escape,
    /// The king sits on the edge inside a fort the attackers cannot break.
    ExitFort,
    /// The attackers surrounded the king.
    KingCaptured,
    /// The attackers cut every defender off from the edge.
    Encirclement,
    /// A position occurred for the third time.
    Repetition,
    /// The side to move had no legal move.
    NoMoves,
    /// The engine's ply limit was reached.
    PlyLimit,
}

impl EndReason {
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Escape => "escape",
            EndReason::ExitFort => "exit-fort",
            EndReason::KingCaptured => "king-captured",
            EndReason::Encirclement => "encirclement",
            EndReason::Repetition => "repetition",
            EndReason::NoMoves => "no-moves",
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

/// Zobrist keys: one per (piece kind, square) and one for "defenders to move".
static KEYS: [u64; 3 * 128 + 1] = zobrist_keys(0x6e6f_726e_7461_666c);
const SIDE_KEY: usize = 3 * 128;

#[derive(Clone, Copy)]
enum Piece {
    Attacker = 0,
    Defender = 1,
    King = 2,
}

#[inline]
fn piece_key(piece: Piece, square: Square) -> u64 {
    KEYS[piece as usize * 128 + square.index()]
}

/// Hashes of the positions that could still recur: those since the last
/// capture (a capture can never be undone). Kept inline so that cloning a
/// state for search rarely allocates.
pub(crate) type RecentPositions = SmallVec<[u64; 16]>;

/// A position of Copenhagen Hnefatafl with its history of recent positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hnefatafl {
    pub(crate) attackers: Bitboard128,
    /// The defenders' soldiers; the king is kept apart.
    pub(crate) defenders: Bitboard128,
    pub(crate) king: Square,
    pub(crate) to_move: Side,
    pub(crate) ply: u32,
    pub(crate) hash: u64,
    pub(crate) rules: HnefataflRules,
    pub(crate) ending: Option<Ending>,
    pub(crate) recent_positions: RecentPositions,
}

impl Hnefatafl {
    /// The standard starting position, attackers to move.
    pub fn start(rules: HnefataflRules) -> Hnefatafl {
        let setup: HnefataflSetup = START_POSITION.parse().expect("the start position is valid");
        Hnefatafl::from_setup(&setup, rules).expect("the start position is valid")
    }

    /// A validated state from an unvalidated setup. The game counts as just
    /// started: the ply counter is zero and there is no repetition history.
    pub fn from_setup(
        setup: &HnefataflSetup,
        rules: HnefataflRules,
    ) -> Result<Hnefatafl, ParseError> {
        setup.validate()?;
        let mut state = Hnefatafl {
            attackers: setup.attackers,
            defenders: setup.defenders,
            king: setup.king.expect("validated setups have a king"),
            to_move: setup.to_move,
            ply: 0,
            hash: 0,
            rules,
            ending: None,
            recent_positions: RecentPositions::new(),
        };
        state.hash = state.hash_from_scratch();
        state.remember_position(false);
        state.ending = state.ending_at_setup();
        Ok(state)
    }

    /// The unvalidated setup of this position (pieces and side to move).
    pub fn setup(&self) -> HnefataflSetup {
        HnefataflSetup {
            attackers: self.attackers,
            defenders: self.defenders,
            king: Some(self.king),
            to_move: self.to_move,
        }
    }

    pub fn attackers(&self) -> Bitboard128 {
        self.attackers
    }

    /// The defenders' soldiers, without the king.
    pub fn defenders(&self) -> Bitboard128 {
        self.defenders
    }

    pub fn king(&self) -> Square {
        self.king
    }

    pub fn side_to_move(&self) -> Side {
        self.to_move
    }

    /// How the game ended, if it has.
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard128 {
        self.attackers | self.defenders.with(self.king)
    }

    /// The pieces of `side`, the king included for the defenders.
    #[inline]
    pub fn pieces(&self, side: Side) -> Bitboard128 {
        match side {
            Side::Attackers => self.attackers,
            Side::Defenders => self.defenders.with(self.king),
        }
    }

    /// The hash computed from the pieces alone, without the incremental updates.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut hash = piece_key(Piece::King, self.king);
        for square in self.attackers.squares() {
            hash ^= piece_key(Piece::Attacker, square);
        }
        for square in self.defenders.squares() {
            hash ^= piece_key(Piece::Defender, square);
        }
        if self.to_move == Side::Defenders {
            hash ^= KEYS[SIDE_KEY];
        }
        hash
    }

    /// The soldiers a move to `to` would capture, and whether it captures the
    /// king, if `mv` were played now. Used to write captures in move records.
    pub fn captures_of(&self, mv: HnefataflMove) -> (Bitboard128, bool) {
        let mut after = self.clone();
        after.move_piece(mv);
        let soldiers = after.captures_by(self.to_move, mv.to);
        let king = self.to_move == Side::Attackers && after.king_is_captured(mv.to);
        (soldiers, king)
    }

    /// Moves the piece on `mv.from` to `mv.to`, updating the hash; no captures.
    #[inline]
    fn move_piece(&mut self, mv: HnefataflMove) {
        let piece = if mv.from == self.king {
            self.king = mv.to;
            Piece::King
        } else if self.to_move == Side::Attackers {
            self.attackers = self.attackers.without(mv.from).with(mv.to);
            Piece::Attacker
        } else {
            self.defenders = self.defenders.without(mv.from).with(mv.to);
            Piece::Defender
        };
        self.hash ^= piece_key(piece, mv.from) ^ piece_key(piece, mv.to);
    }

    /// Records the current position for the repetition rule; a capture first
    /// forgets every earlier position, since none of them can occur again.
    #[inline]
    fn remember_position(&mut self, after_capture: bool) {
        if self.rules.repetition_loses {
            if after_capture {
                self.recent_positions.clear();
            }
            self.recent_positions.push(self.hash);
        }
    }

    /// How often the current position has occurred since the last capture.
    fn occurrences(&self) -> usize {
        self.recent_positions
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&hash| hash == self.hash)
            .count()
    }

    /// The game end that applies to a freshly set-up position: a king already in
    /// a corner, or a side to move without moves.
    fn ending_at_setup(&self) -> Option<Ending> {
        if CORNERS.contains(self.king) {
            return Some(Ending {
                winner: Some(Side::Defenders),
                reason: EndReason::Escape,
            });
        }
        if !self.has_legal_move() {
            return Some(Ending {
                winner: Some(self.to_move.opponent()),
                reason: EndReason::NoMoves,
            });
        }
        None
    }

    /// The game end after `mover` played a move to `to`, if any. The checks run
    /// in order of precedence: decisive results before the ply-limit draw.
    fn ending_after_move(&self, mover: Side, king_captured: bool) -> Option<Ending> {
        let win = |side: Side, reason| {
            Some(Ending {
                winner: Some(side),
                reason,
            })
        };
        match mover {
            Side::Defenders => {
                if CORNERS.contains(self.king) {
                    return win(Side::Defenders, EndReason::Escape);
                }
                if EDGE.contains(self.king) && self.is_exit_fort() {
                    return win(Side::Defenders, EndReason::ExitFort);
                }
            }
            Side::Attackers => {
                if king_captured {
                    return win(Side::Attackers, EndReason::KingCaptured);
                }
                if self.is_encircled() {
                    return win(Side::Attackers, EndReason::Encirclement);
                }
            }
        }
        if self.rules.repetition_loses && self.occurrences() >= 3 {
            return win(Side::Attackers, EndReason::Repetition);
        }
        if !self.has_legal_move() {
            return win(mover, EndReason::NoMoves);
        }
        if self
            .rules
            .ply_limit
            .is_some_and(|limit| self.ply >= limit.get())
        {
            return Some(Ending {
                winner: None,
                reason: EndReason::PlyLimit,
            });
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

impl Game for Hnefatafl {
    type Move = HnefataflMove;
    type Rules = HnefataflRules;

    const NAME: &'static str = "hnefatafl";
    const SCORING: Scoring = Scoring::WinLoss;

    fn new(rules: HnefataflRules) -> Self {
        Hnefatafl::start(rules)
    }

    fn rules(&self) -> &HnefataflRules {
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
            Some(ending) => Status::Over(Hnefatafl::outcome(ending)),
            None => Status::ToMove(self.to_move.player()),
        }
    }

    fn legal_moves(&self, moves: &mut MoveList<HnefataflMove>) {
        moves.clear();
        if self.ending.is_some() {
            return;
        }
        self.for_each_piece_destinations(|from, destinations| {
            for to in destinations.squares() {
                moves.push(HnefataflMove { from, to });
            }
        });
    }

    fn count_legal_moves(&self, _scratch: &mut MoveList<HnefataflMove>) -> usize {
        if self.ending.is_some() {
            return 0;
        }
        self.count_moves()
    }

    fn play(&mut self, mv: HnefataflMove) {
        let mover = self.to_move;
        self.move_piece(mv);
        let captured = self.captures_by(mover, mv.to);
        if captured.any() {
            let (board, piece) = match mover {
                Side::Attackers => (&mut self.defenders, Piece::Defender),
                Side::Defenders => (&mut self.attackers, Piece::Attacker),
            };
            *board ^= captured;
            for square in captured.squares() {
                self.hash ^= piece_key(piece, square);
            }
        }
        let king_captured = mover == Side::Attackers && self.king_is_captured(mv.to);
        self.to_move = mover.opponent();
        self.hash ^= KEYS[SIDE_KEY];
        self.ply += 1;
        self.remember_position(captured.any());
        self.ending = self.ending_after_move(mover, king_captured);
    }

    /// Explains why `mv` is illegal, or returns `Ok` if it is legal.
    fn check_move(&self, mv: HnefataflMove) -> Result<(), IllegalMove> {
        if let Some(ending) = self.ending {
            return Err(IllegalMove::new(format!(
                "the game is over ({})",
                ending.reason.name()
            )));
        }
        let from_name = square_name(mv.from);
        let is_king = mv.from == self.king;
        if !self.occupied().contains(mv.from) {
            return Err(IllegalMove::new(format!(
                "there is no piece on {from_name}"
            )));
        }
        if !self.pieces(self.to_move).contains(mv.from) {
            return Err(IllegalMove::new(format!(
                "the piece on {from_name} belongs to the {}, but the {} are to move",
                self.to_move.opponent(),
                self.to_move
            )));
        }
        if mv.from == mv.to {
            return Err(IllegalMove::new("a piece must move at least one square"));
        }
        let to_name = square_name(mv.to);
        let between = super::board::RAYS.rook_attacks(mv.from, self.occupied());
        let along_line = super::board::RAYS.rook_attacks(mv.from, Bitboard128::EMPTY);
        if !along_line.contains(mv.to) {
            return Err(IllegalMove::new(format!(
                "{from_name} and {to_name} are not on the same rank or file"
            )));
        }
        if !between.contains(mv.to) || self.occupied().contains(mv.to) {
            return Err(IllegalMove::new(format!(
                "the way from {from_name} to {to_name} is blocked"
            )));
        }
        if !is_king && RESTRICTED.contains(mv.to) {
            return Err(IllegalMove::new(format!(
                "only the king may stop on {to_name} (the throne and the corners are restricted)"
            )));
        }
        Ok(())
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

/// Throne hostility as it matters for capturing a piece of `victim`'s side.
#[inline]
pub(crate) fn is_hostile_square(square: Square, victim: Side, king: Square) -> bool {
    CORNERS.contains(square) || (square == THRONE && (victim == Side::Attackers || king != THRONE))
}
