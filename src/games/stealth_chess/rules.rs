//! Playing a move: moving and capturing, castling, en passant, promotion,
//! the Slurk counts, the hash, the clocks, and the ends of the game.

use super::board::{CASTLING_KEPT, CASTLINGS, Kind, PAWN_ATTACKS, Piece, SLURKS, Side, slurk_slot};
use super::moves::{Special, StealthChessMove};
use super::state::{
    EndReason, SlurkMark, StealthChess, castling_key, en_passant_key, piece_key, side_key,
    slurk_key,
};
use crate::bitboard::Square;
use crate::core::limit_reached;

impl StealthChess {
    /// Puts `piece` on the empty `square`, updating the hash.
    #[inline]
    fn put(&mut self, piece: Piece, square: Square) {
        self.sides[piece.side.player()] = self.sides[piece.side.player()].with(square);
        self.kinds[piece.kind.index()] = self.kinds[piece.kind.index()].with(square);
        self.hash ^= piece_key(piece, square);
    }

    /// Takes `piece` off `square`, updating the hash; a Slurk state there
    /// is forgotten.
    #[inline]
    fn take(&mut self, piece: Piece, square: Square) {
        self.sides[piece.side.player()] = self.sides[piece.side.player()].without(square);
        self.kinds[piece.kind.index()] = self.kinds[piece.kind.index()].without(square);
        self.hash ^= piece_key(piece, square);
        if SLURKS.contains(square) {
            let slot = slurk_slot(square);
            self.hash ^= slurk_key(square, self.slurk[slot]);
            self.slurk[slot] = SlurkMark::default();
        }
    }

    /// Records the Slurk state of the Assassin just arrived on `square`.
    #[inline]
    fn mark(&mut self, square: Square, mark: SlurkMark) {
        self.slurk[slurk_slot(square)] = mark;
        self.hash ^= slurk_key(square, mark);
    }

    /// The kind of the piece on `square` (which must be occupied).
    #[inline]
    fn kind_at(&self, square: Square) -> Kind {
        Kind::ALL
            .into_iter()
            .find(|kind| self.kinds[kind.index()].contains(square))
            .expect("a move starts on an occupied square")
    }

    /// Plays a legal move: pieces move and are captured, the rights,
    /// counts, clocks and hash follow, the turn passes, the position is
    /// remembered and the game may end.
    pub(crate) fn apply_move(&mut self, mv: StealthChessMove) {
        let us = self.to_move;
        let kind = self.kind_at(mv.from);
        let mover = Piece { side: us, kind };
        if let Some(square) = self.en_passant.take() {
            self.hash ^= en_passant_key(square);
        }
        let mut captured = false;
        match mv.special {
            Special::EnPassant => {
                let victim = Square::new((mv.to.index() as i32 - us.forward()) as u8);
                self.take(
                    Piece {
                        side: us.opponent(),
                        kind: Kind::Pawn,
                    },
                    victim,
                );
                captured = true;
            }
            Special::Castle => {
                let castling = CASTLINGS
                    .into_iter()
                    .find(|castling| castling.king_to == mv.to && castling.king_from == mv.from)
                    .expect("a castling move");
                let rook = Piece {
                    side: us,
                    kind: Kind::Rook,
                };
                self.take(rook, castling.rook_from);
                self.put(rook, castling.rook_to);
            }
            _ => {
                if let Some(victim) = self.piece_at(mv.to) {
                    self.take(victim, mv.to);
                    captured = true;
                }
            }
        }
        let slurk_mark = (kind == Kind::Assassin && SLURKS.contains(mv.from))
            .then(|| self.slurk[slurk_slot(mv.from)]);
        self.take(mover, mv.from);
        let landed = match mv.special {
            Special::Promotion(promoted) => Piece {
                side: us,
                kind: promoted,
            },
            _ => mover,
        };
        self.put(landed, mv.to);
        if SLURKS.contains(mv.to) {
            // A Slurk move counts one more; a step in from the chessboard
            // makes the square its entry point.
            let mark = match slurk_mark {
                Some(mark) => SlurkMark {
                    entry: mark.entry,
                    count: mark.count.saturating_add(1),
                },
                None => SlurkMark {
                    entry: mv.to,
                    count: 0,
                },
            };
            self.mark(mv.to, mark);
        }
        let kept = self.castling & CASTLING_KEPT[mv.from.index()] & CASTLING_KEPT[mv.to.index()];
        if kept != self.castling {
            self.hash ^= castling_key(self.castling) ^ castling_key(kept);
            self.castling = kept;
        }
        if mv.special == Special::DoublePush {
            let passed = Square::new((mv.to.index() as i32 - us.forward()) as u8);
            // The square is kept only when an enemy pawn could capture on
            // it, so that equal positions hash equally.
            if (PAWN_ATTACKS[us.player()][passed.index()] & self.pieces(us.opponent(), Kind::Pawn))
                .any()
            {
                self.en_passant = Some(passed);
                self.hash ^= en_passant_key(passed);
            }
        }
        let irreversible = captured || kind == Kind::Pawn;
        self.halfmove_clock = if irreversible {
            0
        } else {
            self.halfmove_clock.saturating_add(1)
        };
        if us == Side::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.to_move = us.opponent();
        self.hash ^= side_key();
        self.ply += 1;
        self.remember_position(irreversible);
        self.draw = self.draw_now();
    }

    /// Records the current position for the repetition rule; a pawn move
    /// or capture first forgets every earlier position, since none of them
    /// can occur again.
    #[inline]
    pub(crate) fn remember_position(&mut self, irreversible: bool) {
        if self.rules.repetition {
            self.history.remember(self.hash, irreversible);
        }
    }

    /// The draw rule that ends the game in the current position, if one
    /// does. A side without a move is mated or stalemated instead, as in
    /// chess a mate on the hundredth ply still wins; that is found when the
    /// status is asked (see [`StealthChess::ending`]), so that playing a
    /// move does not generate the next moves.
    pub(crate) fn draw_now(&self) -> Option<EndReason> {
        let rules = &self.rules;
        let reason = if rules.insufficient_material && self.material_is_insufficient() {
            EndReason::InsufficientMaterial
        } else if rules.repetition && self.history.occurrences(self.hash) >= 3 {
            EndReason::Repetition
        } else if rules.fifty_moves && self.halfmove_clock >= 100 {
            EndReason::FiftyMoves
        } else if limit_reached(rules.ply_limit, self.ply) {
            EndReason::PlyLimit
        } else {
            return None;
        };
        self.has_legal_move().then_some(reason)
    }
}
