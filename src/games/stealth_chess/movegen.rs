//! Legal move generation, written once against a [`MoveSink`]: a
//! [`MoveList`] keeps the moves, a [`MoveCounter`] counts them from the
//! destination sets (perft's bulk count of the last ply).
//!
//! Each position first works out what the side to move must respect
//! ([`Safety`]): the pieces giving check, ordinary or by an Assassin's leap;
//! the squares next to the king where an enemy Assassin could emerge; the
//! pieces pinned by sliders; and the pieces frozen because they cover such
//! a square. From these every move but en passant is legal by
//! construction; en passant, which removes two pieces from the board at
//! once, is tested on the position it leaves, as is every king move.

use super::board::{
    ALL_SQUARES, ASSASSIN_STEPS, BACK_RANKS, BETWEEN, CHESSBOARD, DIAGONALS, KING, KNIGHT, Kind,
    LEAPS, ORTHOGONALS, PAWN_ATTACKS, RAYS, SLURKS, Side, castlings_of, emergence_squares,
    rank_mask, slurk_slot,
};
use super::moves::{Special, StealthChessMove};
use super::state::StealthChess;
use crate::bitboard::{Bitboard128, Square};
use crate::core::{MoveCounter, MoveList, MoveSink};

/// What every move of the side to move must respect, worked out once per
/// position.
pub(crate) struct Safety {
    pub king: Square,
    /// Enemy pieces that attack the king: ordinary checks and Assassins
    /// two squares away on a line (a leap cannot be blocked).
    pub checkers: Bitboard128,
    /// The chessboard squares where the enemy's Assassins in Slurks could
    /// emerge on their next move, empty or not.
    pub zone: Bitboard128,
    /// Empty squares next to the king in the zone: an Assassin emerging
    /// there could take the king (stealth check).
    pub exposed: Bitboard128,
    /// Own pieces that cannot leave the line between the king and an enemy
    /// slider.
    pub pinned: Bitboard128,
    /// The first `pin_count` entries: for each pin, the squares between the
    /// king and the pinning slider and the slider's own square. A pinned
    /// piece may move only within its pin's ray: an Assassin that leaps
    /// over the slider stays on the line but opens it.
    pub pin_rays: [Bitboard128; 8],
    pub pin_count: usize,
    /// Own pieces next to the king on squares of the zone: leaving would
    /// open the square to an emergence, so they cannot move at all.
    pub frozen: Bitboard128,
    /// The squares where a move of any piece but the king may end: those
    /// that take the single checker, block its line, or cover the single
    /// exposed square.
    pub allowed: Bitboard128,
}

impl Safety {
    /// The squares a piece on `from` may end on as far as pins go: its
    /// pin's ray, or anywhere if it is not pinned.
    #[inline]
    pub fn pin_ray(&self, from: Square) -> Bitboard128 {
        if !self.pinned.contains(from) {
            return ALL_SQUARES;
        }
        self.pin_rays[..self.pin_count]
            .iter()
            .copied()
            .find(|ray| ray.contains(from))
            .unwrap_or(ALL_SQUARES)
    }

    /// Whether the king is in check, ordinary or stealth.
    pub fn in_check(&self) -> bool {
        self.checkers.any() || self.exposed.any()
    }
}

impl StealthChess {
    /// The chessboard squares where `side`'s Assassins in Slurks could
    /// emerge on their next move.
    pub(crate) fn emergence_zone(&self, side: Side) -> Bitboard128 {
        let mut zone = Bitboard128::EMPTY;
        for square in (self.pieces(side, Kind::Assassin) & SLURKS).squares() {
            let mark = self.slurk[slurk_slot(square)];
            zone |= emergence_squares(mark.entry, mark.count);
        }
        zone
    }

    /// The pieces among `attackers` (all of one side) that could capture on
    /// `square` by an ordinary move or an Assassin's leap, with the board
    /// occupied as `occupied`. Kings count as capturable here, which is
    /// what check means.
    #[inline]
    fn attackers_of(
        &self,
        square: Square,
        attacking: Side,
        attackers: Bitboard128,
        occupied: Bitboard128,
    ) -> Bitboard128 {
        let kinds = &self.kinds;
        let diagonal = kinds[Kind::Bishop.index()] | kinds[Kind::Queen.index()];
        let straight = kinds[Kind::Rook.index()] | kinds[Kind::Queen.index()];
        let near = (PAWN_ATTACKS[attacking.opponent().player()][square.index()]
            & kinds[Kind::Pawn.index()])
            | (KNIGHT.targets(square) & kinds[Kind::Knight.index()])
            | (KING.targets(square) & kinds[Kind::King.index()])
            | (LEAPS.targets(square) & kinds[Kind::Assassin.index()]);
        let mut found = near & attackers;
        // Rays are scanned only towards sliders that share a line with the
        // square, which is rarely all of them.
        if (DIAGONALS[square.index()] & diagonal & attackers).any() {
            found |= RAYS.bishop_attacks(square, occupied) & diagonal & attackers;
        }
        if (ORTHOGONALS[square.index()] & straight & attackers).any() {
            found |= RAYS.rook_attacks(square, occupied) & straight & attackers;
        }
        found
    }

    /// Whether a king of the opponent of `attacking` on `square` would be
    /// in check once a move has left the board occupied as `occupied`, with
    /// `attackers` the attacking side's pieces still standing and `zone`
    /// its emergence zone.
    #[inline]
    fn attacked_after(
        &self,
        square: Square,
        attacking: Side,
        attackers: Bitboard128,
        occupied: Bitboard128,
        zone: Bitboard128,
    ) -> bool {
        (KING.targets(square) & zone & !occupied).any()
            || self
                .attackers_of(square, attacking, attackers, occupied)
                .any()
    }

    /// What the side to move must respect.
    pub(crate) fn safety(&self) -> Safety {
        let us = self.to_move;
        let them = us.opponent();
        let king = self.king(us);
        let own = self.side_pieces(us);
        let theirs = self.side_pieces(them);
        let occupied = own | theirs;
        let checkers = self.attackers_of(king, them, theirs, occupied);
        let zone = self.emergence_zone(them);
        let stealth = KING.targets(king) & zone;
        let exposed = stealth & !occupied;
        let kinds = &self.kinds;
        let queens = kinds[Kind::Queen.index()];
        let snipers = ((ORTHOGONALS[king.index()] & (kinds[Kind::Rook.index()] | queens))
            | (DIAGONALS[king.index()] & (kinds[Kind::Bishop.index()] | queens)))
            & theirs;
        let mut pinned = Bitboard128::EMPTY;
        let mut pin_rays = [Bitboard128::EMPTY; 8];
        let mut pin_count = 0;
        for sniper in snipers.squares() {
            let between = BETWEEN[king.index()][sniper.index()];
            let blockers = between & occupied;
            if blockers.count() == 1 && blockers.intersects(own) {
                pinned |= blockers;
                pin_rays[pin_count] = between.with(sniper);
                pin_count += 1;
            }
        }
        let sliders = kinds[Kind::Bishop.index()] | kinds[Kind::Rook.index()] | queens;
        let mut allowed = match (checkers.count(), checkers.lowest()) {
            (0, _) => ALL_SQUARES,
            (1, Some(checker)) if sliders.contains(checker) => {
                BETWEEN[king.index()][checker.index()].with(checker)
            }
            (1, Some(checker)) => Bitboard128::from_square(checker),
            _ => Bitboard128::EMPTY,
        };
        // One move covers at most one square, so two exposed squares leave
        // only the king to move.
        if exposed.any() {
            allowed &= if exposed.count() == 1 {
                exposed
            } else {
                Bitboard128::EMPTY
            };
        }
        Safety {
            king,
            checkers,
            zone,
            exposed,
            pinned,
            pin_rays,
            pin_count,
            frozen: stealth & own,
            allowed,
        }
    }

    /// Whether the side to move is in check, ordinary or stealth.
    pub fn in_check(&self) -> bool {
        self.safety().in_check()
    }

    /// Whether the side to move is in check from an enemy Assassin: one
    /// that could leap onto its king or emerge next to it.
    pub fn in_stealth_check(&self) -> bool {
        let safety = self.safety();
        safety.exposed.any() || safety.checkers.intersects(self.kind_pieces(Kind::Assassin))
    }

    /// Appends every legal move of the side to move (the game must not be
    /// over).
    pub(crate) fn generate_moves(&self, moves: &mut MoveList<StealthChessMove>) {
        self.generate(moves);
    }

    /// The number of legal moves of the side to move (ignoring whether the
    /// game is over), counted from destination sets without building moves.
    pub(crate) fn count_moves(&self) -> usize {
        let mut counter = MoveCounter::default();
        self.generate(&mut counter);
        counter.0
    }

    /// Whether the side to move has a legal move: generation stops at the
    /// first group of moves found.
    pub(crate) fn has_legal_move(&self) -> bool {
        let mut found = AnyMove(false);
        self.generate(&mut found);
        found.0
    }

    /// Every legal move of the side to move, into `sink`, unless the sink
    /// has seen enough.
    fn generate<S: Collect>(&self, sink: &mut S) {
        let safety = self.safety();
        self.king_moves(&safety, sink);
        if safety.allowed.is_empty() || sink.enough() {
            return;
        }
        let us = self.to_move;
        let own = self.side_pieces(us);
        let theirs = self.side_pieces(us.opponent());
        let occupied = own | theirs;
        let kinds = &self.kinds;
        let kings = kinds[Kind::King.index()];
        let assassins = kinds[Kind::Assassin.index()];
        let free = CHESSBOARD & !occupied;
        let movable = own & !safety.frozen;
        let targets = (free | (theirs & !kings)) & safety.allowed;
        let pin_line = |from: Square| safety.pin_ray(from);
        let queens = kinds[Kind::Queen.index()];
        for from in (movable & kinds[Kind::Knight.index()]).squares() {
            let to = KNIGHT.targets(from) & targets & pin_line(from);
            add_plain(sink, from, to);
        }
        if sink.enough() {
            return;
        }
        for from in (movable & (kinds[Kind::Bishop.index()] | queens)).squares() {
            let to = RAYS.bishop_attacks(from, occupied) & targets & pin_line(from);
            add_plain(sink, from, to);
        }
        for from in (movable & (kinds[Kind::Rook.index()] | queens)).squares() {
            let to = RAYS.rook_attacks(from, occupied) & targets & pin_line(from);
            add_plain(sink, from, to);
        }
        self.pawn_moves(&safety, movable, sink);
        if sink.enough() {
            return;
        }
        // An Assassin captures pieces of either side but never a king or
        // an Assassin.
        let prey = occupied & !kings & !assassins;
        for from in (movable & assassins & CHESSBOARD).squares() {
            let steps = ASSASSIN_STEPS.targets(from) & !occupied;
            let leaps = LEAPS.targets(from) & prey;
            add_plain(
                sink,
                from,
                (steps | leaps) & safety.allowed & pin_line(from),
            );
        }
        for from in (own & assassins & SLURKS).squares() {
            if !safety.in_check() {
                // Up or down the Slurk: its file is the only Slurk square
                // next to it.
                let slurk_steps = ASSASSIN_STEPS.targets(from) & SLURKS & !occupied;
                add_plain(sink, from, slurk_steps);
            }
            let mark = self.slurk[slurk_slot(from)];
            if mark.count == 0 {
                continue;
            }
            let landing = emergence_squares(mark.entry, mark.count) & free;
            add_plain(sink, from, landing & safety.allowed);
            // The square emerged on stays empty after a capture, so only
            // the capture square matters to the king's safety.
            let capturable = prey & safety.allowed;
            for via in landing.squares() {
                let to = KING.targets(via) & capturable;
                sink.add(
                    to.count() as usize,
                    to.squares().map(move |to| {
                        StealthChessMove::new(from, to, Special::EmergeCapture(via))
                    }),
                );
            }
        }
    }

    /// The king's steps and castlings, each tested on the position it leaves.
    fn king_moves<S: MoveSink<StealthChessMove>>(&self, safety: &Safety, sink: &mut S) {
        let us = self.to_move;
        let them = us.opponent();
        let own = self.side_pieces(us);
        let theirs = self.side_pieces(them);
        let king = safety.king;
        let without_king = (own | theirs).without(king);
        let mut legal = Bitboard128::EMPTY;
        for to in (KING.targets(king) & !own).squares() {
            let occupied = without_king.with(to);
            if !self.attacked_after(to, them, theirs.without(to), occupied, safety.zone) {
                legal = legal.with(to);
            }
        }
        add_plain(sink, king, legal);
        if safety.in_check() || self.castling == 0 {
            return;
        }
        for castling in castlings_of(us) {
            if self.castling & castling.right == 0 || (without_king & castling.must_be_empty).any()
            {
                continue;
            }
            let passing = without_king.with(castling.passed);
            if self.attacked_after(castling.passed, them, theirs, passing, safety.zone) {
                continue;
            }
            let after = without_king
                .without(castling.rook_from)
                .with(castling.rook_to)
                .with(castling.king_to);
            if !self.attacked_after(castling.king_to, them, theirs, after, safety.zone) {
                sink.push_move(StealthChessMove::new(
                    king,
                    castling.king_to,
                    Special::Castle,
                ));
            }
        }
    }

    /// Pawn pushes, double steps, captures, promotions and en passant.
    fn pawn_moves<S: MoveSink<StealthChessMove>>(
        &self,
        safety: &Safety,
        movable: Bitboard128,
        sink: &mut S,
    ) {
        let us = self.to_move;
        let them = us.opponent();
        let own = self.side_pieces(us);
        let theirs = self.side_pieces(them);
        let occupied = own | theirs;
        let free = CHESSBOARD & !occupied;
        let pawns = self.pieces(us, Kind::Pawn);
        let victims = theirs & !self.kind_pieces(Kind::King);
        let forward = us.forward();
        let start_rank = match us {
            Side::White => rank_mask(1),
            Side::Black => rank_mask(6),
        };
        let king = safety.king;
        let allowed = safety.allowed;
        // Pawns that are not pinned move in bulk: every set below is a
        // shift of all of them at once. The Slurk files between the ranks'
        // chessboards keep a diagonal shift from wrapping onto another rank.
        let unpinned = pawns & movable & !safety.pinned;
        let one = shift(unpinned, forward) & free;
        add_pawn_moves(sink, one & allowed, move |to| step(to, -forward));
        let two = shift(one & shift(start_rank, forward), forward) & free & allowed;
        sink.add(
            two.count() as usize,
            two.squares().map(move |to| {
                StealthChessMove::new(step(to, -2 * forward), to, Special::DoublePush)
            }),
        );
        for diagonal in [forward - 1, forward + 1] {
            let captures = shift(unpinned, diagonal) & victims & CHESSBOARD & allowed;
            add_pawn_moves(sink, captures, move |to| step(to, -diagonal));
        }
        for from in (pawns & movable & safety.pinned).squares() {
            let ray = allowed & safety.pin_ray(from);
            // A pawn never stands on its last rank, so one step forward is
            // always on the board.
            let one = step(from, forward);
            let mut to = PAWN_ATTACKS[us.player()][from.index()] & victims;
            if free.contains(one) {
                to = to.with(one);
                let two = step(one, forward);
                if start_rank.contains(from) && free.contains(two) && ray.contains(two) {
                    sink.push_move(StealthChessMove::new(from, two, Special::DoublePush));
                }
            }
            add_pawn_moves(sink, to & ray, move |_| from);
        }
        let Some(target) = self.en_passant else {
            return;
        };
        let captured = step(target, -forward);
        let capturers = PAWN_ATTACKS[them.player()][target.index()] & pawns;
        for from in capturers.squares() {
            let occupied = occupied.without(from).without(captured).with(target);
            let attackers = theirs.without(captured);
            if !self.attacked_after(king, them, attackers, occupied, safety.zone) {
                sink.push_move(StealthChessMove::new(from, target, Special::EnPassant));
            }
        }
    }

    /// Why `mv`, which is not among the legal `moves`, is illegal.
    pub(crate) fn why_illegal(&self, mv: StealthChessMove, moves: &[StealthChessMove]) -> String {
        let Some(piece) = self.piece_at(mv.from) else {
            return format!(
                "there is no piece on {}",
                super::board::square_name(mv.from)
            );
        };
        if piece.side != self.to_move {
            return format!(
                "the piece on {} is {}'s, but {} is to move",
                super::board::square_name(mv.from),
                piece.side,
                self.to_move
            );
        }
        let from_here = moves.iter().filter(|legal| legal.from == mv.from).count();
        if self.in_check() && from_here == 0 {
            return format!(
                "{mv} does not answer the check on the {} king",
                self.to_move
            );
        }
        if moves
            .iter()
            .any(|legal| legal.from == mv.from && legal.to == mv.to)
        {
            return format!("{mv} is not how that move is written here");
        }
        format!(
            "{mv} is not a legal move here: the {} cannot go there, or it would leave its king in check",
            format!("{:?}", piece.kind).to_lowercase()
        )
    }
}

/// A sink that only asks whether there is any move.
struct AnyMove(bool);

impl MoveSink<StealthChessMove> for AnyMove {
    #[inline]
    fn add(&mut self, count: usize, _moves: impl IntoIterator<Item = StealthChessMove>) {
        self.0 |= count > 0;
    }
}

/// Where [`StealthChess::generate`] puts moves, and whether it may stop.
trait Collect: MoveSink<StealthChessMove> {
    /// Whether the sink needs no more moves.
    fn enough(&self) -> bool {
        false
    }
}

impl Collect for MoveList<StealthChessMove> {}
impl Collect for MoveCounter {}

impl Collect for AnyMove {
    #[inline]
    fn enough(&self) -> bool {
        self.0
    }
}

/// The square `offset` indices from `square`, for steps the caller knows
/// stay on the board.
#[inline]
fn step(square: Square, offset: i32) -> Square {
    Square::new((square.index() as i32 + offset) as u8)
}

/// `set` shifted by `offset` square indices, up or down.
#[inline]
fn shift(set: Bitboard128, offset: i32) -> Bitboard128 {
    if offset >= 0 {
        set.shift_up(offset as u32)
    } else {
        set.shift_down(offset.unsigned_abs())
    }
}

/// Adds a pawn's move to each square of `targets`, from `from_of(to)`:
/// one move, or on the last rank one per promotion.
#[inline]
fn add_pawn_moves<S: MoveSink<StealthChessMove>>(
    sink: &mut S,
    targets: Bitboard128,
    from_of: impl Fn(Square) -> Square + Copy,
) {
    let quiet = targets & !BACK_RANKS;
    sink.add(
        quiet.count() as usize,
        quiet
            .squares()
            .map(move |to| StealthChessMove::plain(from_of(to), to)),
    );
    let promoting = targets & BACK_RANKS;
    sink.add(
        4 * promoting.count() as usize,
        promoting.squares().flat_map(move |to| {
            Kind::PROMOTIONS
                .map(|kind| StealthChessMove::new(from_of(to), to, Special::Promotion(kind)))
        }),
    );
}

/// Adds a move from `from` to each of `to`, with nothing special.
#[inline]
fn add_plain<S: MoveSink<StealthChessMove>>(sink: &mut S, from: Square, to: Bitboard128) {
    sink.add(
        to.count() as usize,
        to.squares()
            .map(move |to| StealthChessMove::plain(from, to)),
    );
}
