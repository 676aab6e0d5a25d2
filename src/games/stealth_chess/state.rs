//! The game state, its accessors, how a game ends, the Zobrist keys and
//! the [`Game`] implementation.

use super::board::{GRID, Kind, Piece, SLURK_SLOTS, SLURKS, Side, slurk_slot};
use super::moves::StealthChessMove;
use super::options::StealthChessRules;
use crate::bitboard::{Bitboard128, Square};
use crate::core::zobrist::{splitmix64, zobrist_keys};
use crate::core::{
    Game, IllegalMove, MoveList, Outcome, RepetitionHistory, Scoring, Status, hash_and_ply_fields,
    scramble, two_sided_players,
};
use serde::Serialize;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// The side to move is in check (ordinary or stealth) and has no move.
    Checkmate,
    /// The side to move is not in check and has no move.
    Stalemate,
    /// A position occurred for the third time.
    Repetition,
    /// A hundred plies passed without a pawn move or a capture.
    FiftyMoves,
    /// Neither side can mate: kings alone, or a king and one minor piece
    /// against a king, with no pawn or Assassin.
    InsufficientMaterial,
    /// The engine's ply limit was reached.
    PlyLimit,
}

impl EndReason {
    /// The reason's name in records and reports.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::Repetition => "repetition",
            EndReason::FiftyMoves => "fifty-moves",
            EndReason::InsufficientMaterial => "insufficient-material",
            EndReason::PlyLimit => "ply-limit",
        }
    }
}

/// What an Assassin in a Slurk remembers: where it entered, and how many
/// Slurk moves it has made since.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlurkMark {
    /// The Slurk square where the Assassin entered (on its file).
    pub entry: Square,
    /// Slurk moves since the entry. It saturates at `u16::MAX`, far beyond
    /// the 15 that let an Assassin emerge anywhere.
    pub count: u16,
}

const PIECE_KEYS: usize = 2 * 7 * 80;
const CASTLING_KEYS: usize = PIECE_KEYS;
const EN_PASSANT_KEYS: usize = CASTLING_KEYS + 16;
const SIDE_KEY: usize = EN_PASSANT_KEYS + 10;
const SLURK_KEYS: usize = SIDE_KEY + 1;
/// Zobrist keys: one per (side, kind, square), one per set of castling
/// rights, one per en passant file, one for "Black to move" and one per
/// Slurk slot and entry rank (mixed with the count).
static KEYS: [u64; SLURK_KEYS + SLURK_SLOTS * 8] = zobrist_keys(0x7374_6561_6c74_6863);

#[inline]
pub(crate) fn piece_key(piece: Piece, square: Square) -> u64 {
    KEYS[(piece.side.player() * 7 + piece.kind.index()) * 80 + square.index()]
}

#[inline]
pub(crate) fn castling_key(rights: u8) -> u64 {
    KEYS[CASTLING_KEYS + rights as usize]
}

#[inline]
pub(crate) fn en_passant_key(square: Square) -> u64 {
    KEYS[EN_PASSANT_KEYS + GRID.file(square) as usize]
}

#[inline]
pub(crate) fn side_key() -> u64 {
    KEYS[SIDE_KEY]
}

/// The key of an Assassin's Slurk state on `square`: its entry point and
/// count. Counts are unbounded, so the count is mixed into the key rather
/// than given a key of its own.
#[inline]
pub(crate) fn slurk_key(square: Square, mark: SlurkMark) -> u64 {
    let base = KEYS[SLURK_KEYS + slurk_slot(square) * 8 + GRID.rank(mark.entry) as usize];
    splitmix64(base ^ u64::from(mark.count)).1
}

/// A position of Stealth Chess with the history the draw rules need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StealthChess {
    /// The pieces of each kind, both sides together, indexed by [`Kind::index`].
    pub(crate) kinds: [Bitboard128; 7],
    /// The pieces of each side, indexed by [`Side::player`].
    pub(crate) sides: [Bitboard128; 2],
    /// The Slurk state of the Assassin on each Slurk square (default where
    /// no Assassin stands).
    pub(crate) slurk: [SlurkMark; SLURK_SLOTS],
    pub(crate) to_move: Side,
    /// The castling rights still held, as the bits of `board::CASTLINGS`.
    pub(crate) castling: u8,
    /// The square a pawn passed over with its double step, kept only when
    /// a pawn of the side to move stands beside it to capture.
    pub(crate) en_passant: Option<Square>,
    /// Plies since the last pawn move or capture.
    pub(crate) halfmove_clock: u16,
    /// The move number of positions, starting at 1 and counting up after
    /// each move of Black.
    pub(crate) fullmove: u32,
    /// Plies played since this state was set up.
    pub(crate) ply: u32,
    pub(crate) hash: u64,
    pub(crate) rules: StealthChessRules,
    /// The draw rule that ended the game, if one did. Checkmate and
    /// stalemate are not stored: they are read off the moves when asked.
    pub(crate) draw: Option<EndReason>,
    /// The positions since the last pawn move or capture, for the
    /// repetition rule.
    pub(crate) history: RepetitionHistory<12>,
}

impl StealthChess {
    /// The side whose turn it is.
    pub fn side_to_move(&self) -> Side {
        self.to_move
    }

    /// How the game ended, if it has; the outcome of
    /// [`status`](Game::status) says who won. Finding a mate or stalemate
    /// costs a move generation.
    pub fn ending(&self) -> Option<EndReason> {
        if self.draw.is_some() {
            return self.draw;
        }
        if self.has_legal_move() {
            None
        } else if self.in_check() {
            Some(EndReason::Checkmate)
        } else {
            Some(EndReason::Stalemate)
        }
    }

    /// The pieces of `side`.
    #[inline]
    pub fn side_pieces(&self, side: Side) -> Bitboard128 {
        self.sides[side.player()]
    }

    /// The pieces of `kind`, both sides.
    #[inline]
    pub fn kind_pieces(&self, kind: Kind) -> Bitboard128 {
        self.kinds[kind.index()]
    }

    /// The pieces of one side and kind.
    #[inline]
    pub fn pieces(&self, side: Side, kind: Kind) -> Bitboard128 {
        self.sides[side.player()] & self.kinds[kind.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard128 {
        self.sides[0] | self.sides[1]
    }

    /// The piece on `square`, if any.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let side = if self.sides[0].contains(square) {
            Side::White
        } else if self.sides[1].contains(square) {
            Side::Black
        } else {
            return None;
        };
        let kind = Kind::ALL
            .into_iter()
            .find(|kind| self.kinds[kind.index()].contains(square))?;
        Some(Piece { side, kind })
    }

    /// The square of `side`'s king.
    #[inline]
    pub fn king(&self, side: Side) -> Square {
        self.pieces(side, Kind::King)
            .lowest()
            .expect("every position has both kings")
    }

    /// The Slurk state of the Assassin on `square`, if an Assassin stands in
    /// a Slurk there.
    pub fn slurk_mark(&self, square: Square) -> Option<SlurkMark> {
        (SLURKS.contains(square) && self.kind_pieces(Kind::Assassin).contains(square))
            .then(|| self.slurk[slurk_slot(square)])
    }

    /// The castling rights held, as `KQkq` bits.
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// The en passant square, when a pawn of the side to move stands ready
    /// to capture there.
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// Plies since the last pawn move or capture.
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove_clock
    }

    /// The hash computed from the position alone, without the incremental
    /// updates.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut hash = castling_key(self.castling);
        for square in self.occupied().squares() {
            let piece = self.piece_at(square).expect("an occupied square");
            hash ^= piece_key(piece, square);
            if let Some(mark) = self.slurk_mark(square) {
                hash ^= slurk_key(square, mark);
            }
        }
        if let Some(square) = self.en_passant {
            hash ^= en_passant_key(square);
        }
        if self.to_move == Side::Black {
            hash ^= side_key();
        }
        hash
    }

    /// Whether the material left can never mate: no pawn, rook, queen or
    /// Assassin, and at most one bishop or knight.
    pub(crate) fn material_is_insufficient(&self) -> bool {
        let heavy = self.kind_pieces(Kind::Pawn)
            | self.kind_pieces(Kind::Rook)
            | self.kind_pieces(Kind::Queen)
            | self.kind_pieces(Kind::Assassin);
        let minor = self.kind_pieces(Kind::Knight) | self.kind_pieces(Kind::Bishop);
        heavy.is_empty() && minor.count() <= 1
    }

    /// The side that won a game that ended for `reason` (`None` for a draw).
    pub(crate) fn winner(&self, reason: EndReason) -> Option<Side> {
        match reason {
            EndReason::Checkmate => Some(self.to_move.opponent()),
            _ => None,
        }
    }
}

impl Game for StealthChess {
    type Move = StealthChessMove;
    type Rules = StealthChessRules;

    const NAME: &'static str = "stealth-chess";
    const SCORING: Scoring = Scoring::WinLoss;

    // Not all of `two_sided_turns!`: the state
    // stores only the draws, and a side without moves is found mated or
    // stalemated when the status is asked, so that perft does not generate
    // every position's moves once more while playing into it.

    two_sided_players!(Side);
    hash_and_ply_fields!();

    fn status(&self) -> Status {
        match self.ending() {
            Some(reason) => Status::Over(Outcome::win_or_draw(
                self.winner(reason).map(Side::player),
                reason.name(),
            )),
            None => Status::ToMove(self.to_move.player()),
        }
    }

    fn legal_moves(&self, moves: &mut MoveList<StealthChessMove>) {
        moves.clear();
        if self.draw.is_none() {
            self.generate_moves(moves);
        }
    }

    fn count_legal_moves(&self, _scratch: &mut MoveList<StealthChessMove>) -> usize {
        if self.draw.is_some() {
            return 0;
        }
        self.count_moves()
    }

    fn play(&mut self, mv: StealthChessMove) {
        self.apply_move(mv);
    }

    /// The positions the repetition rule counts, the halfmove clock of the
    /// fifty-move rule and the ply where a ply limit can end the game.
    fn history_key(&self) -> u64 {
        let mut key = self.history.key();
        if self.rules.fifty_moves {
            key ^= scramble(u64::from(self.halfmove_clock) << 32);
        }
        if self.rules.ply_limit.is_some() {
            key ^= scramble(u64::from(self.ply));
        }
        key
    }

    /// Explains why `mv` is illegal, or returns `Ok` if it is legal.
    fn check_move(&self, mv: StealthChessMove) -> Result<(), IllegalMove> {
        if let Some(reason) = self.draw {
            return Err(IllegalMove::new(format!(
                "the game is over ({})",
                reason.name()
            )));
        }
        let mut moves = MoveList::new();
        self.generate_moves(&mut moves);
        if moves.contains(&mv) {
            return Ok(());
        }
        if moves.is_empty() {
            let reason = self.ending().map_or("no moves", EndReason::name);
            return Err(IllegalMove::new(format!("the game is over ({reason})")));
        }
        Err(IllegalMove::new(self.why_illegal(mv, &moves)))
    }
}
