//! Move generation: every piece slides like a rook over empty squares it
//! may pass, stops where it may stop, within its speed limit; some kinds
//! jump over an adjacent enemy; a berserk piece moves alone.

use super::bits::Bits;
use super::board::{Side, Width};
use super::moves::TaflMove;
use super::pieces::{Kind, Piece};
use super::rules_string::{Berserk, Jump, Region};
use super::spec::{Pos, Spec};
use super::state::{Tafl, with_board};
use crate::core::MoveList;

/// The squares within `limit` steps of `from` along its rank and file.
fn within<B: Width>(spec: &Spec<B>, from: usize, limit: usize) -> B {
    let mut reach = B::EMPTY;
    for d in 0..4 {
        let mut cursor = from;
        let mut steps = 0;
        while steps < limit {
            match spec.geo.neighbour(cursor, d) {
                Some(next) => {
                    reach |= B::bit(next);
                    cursor = next;
                    steps += 1;
                }
                None => break,
            }
        }
    }
    reach
}

/// The squares a piece of kind `kind` (of index `piece`) on `from` may
/// end a move on, given the occupied squares: its slides, then its jumps.
#[inline]
pub(crate) fn destinations<B: Width>(
    pos: &Pos<B>,
    spec: &Spec<B>,
    piece: Piece,
    from: usize,
    occupied: B,
) -> B {
    let index = piece.index();
    let mut reach = spec.geo.slide(from, occupied | spec.no_pass[index]);
    let speed = spec.speeds[index];
    if speed < spec.geo.dim - 1 {
        reach &= within(spec, from, speed);
    }
    let mut landing = reach & !occupied & !spec.no_stop[index];
    let closed = spec.no_reenter[index];
    if closed.any() {
        landing &= !(closed & !spec.region_of(from));
    }
    if spec.jumping && spec.jumps[piece.kind as usize] != Jump::None {
        landing |= jumps(pos, spec, piece, from, occupied);
    }
    landing
}

/// The squares a piece on `from` jumps to: over an adjacent enemy piece
/// other than the king, onto the empty square beyond it, where it may
/// stop, with a speed limit of two squares or more; a restricted jump
/// only from or to the centre, a corner or a fortress of its side.
fn jumps<B: Width>(pos: &Pos<B>, spec: &Spec<B>, piece: Piece, from: usize, occupied: B) -> B {
    let index = piece.index();
    let mode = spec.jumps[piece.kind as usize];
    if spec.speeds[index] < 2 {
        return B::EMPTY;
    }
    let enemies = pos.side(piece.side.opponent()).without(pos.king as usize);
    let anchors = spec.regions[Region::Centre as usize]
        | spec.regions[Region::Corner as usize]
        | match piece.side {
            Side::Attackers => spec.regions[Region::AttackerFortress as usize],
            Side::Defenders => spec.regions[Region::DefenderFortress as usize],
        };
    let mut landing = B::EMPTY;
    for d in 0..4 {
        let Some(over) = spec.geo.neighbour(from, d) else {
            continue;
        };
        if !enemies.has(over) {
            continue;
        }
        let Some(to) = spec.geo.neighbour(over, d) else {
            continue;
        };
        if occupied.has(to) || spec.no_stop[index].has(to) {
            continue;
        }
        if spec.no_reenter[index].has(to) && !spec.region_of(from).has(to) {
            continue;
        }
        if mode == Jump::Restricted && !anchors.has(from) && !anchors.has(to) {
            continue;
        }
        landing |= B::bit(to);
    }
    landing
}

/// Whether the move from `from` to `to` is a jump: two squares along a
/// line over an occupied square.
#[inline]
pub(crate) fn jumped_square<B: Width>(
    pos: &Pos<B>,
    spec: &Spec<B>,
    from: usize,
    to: usize,
) -> Option<usize> {
    let dim = spec.geo.dim;
    let along_rank = from.abs_diff(to) == 2 && from / dim == to / dim;
    if !along_rank && from.abs_diff(to) != 2 * dim {
        return None;
    }
    let middle = (from + to) / 2;
    pos.occupied().has(middle).then_some(middle)
}

/// Calls `visit(from, destinations)` for every piece of `side` (the piece
/// on `only`, if given) that can move.
#[inline]
pub(crate) fn for_each_piece<B: Width>(
    pos: &Pos<B>,
    spec: &Spec<B>,
    side: Side,
    only: Option<usize>,
    mut visit: impl FnMut(usize, Piece, B),
) {
    let occupied = pos.occupied();
    if let Some(from) = only {
        let piece = pos
            .piece_at(from)
            .expect("a berserk piece is on its square");
        let targets = destinations(pos, spec, piece, from, occupied);
        if targets.any() {
            visit(from, piece, targets);
        }
        return;
    }
    let own = pos.side(side);
    let king = pos.king as usize;
    let specials = pos.specials();
    // The taflmen share one set of tables: the common case, kept apart.
    let taflman = Piece {
        side,
        kind: Kind::Taflman,
    };
    let index = taflman.index();
    let plain = spec.speeds[index] >= spec.geo.dim - 1 && spec.no_reenter[index].is_empty();
    let blockers = occupied | spec.no_pass[index];
    let open = !occupied & !spec.no_stop[index];
    for from in (own & !specials).without(king).squares() {
        let targets = if plain {
            spec.geo.slide(from, blockers) & open
        } else {
            destinations(pos, spec, taflman, from, occupied)
        };
        if targets.any() {
            visit(from, taflman, targets);
        }
    }
    for from in (own & specials).squares() {
        let piece = pos.piece_at(from).expect("an own piece");
        let targets = destinations(pos, spec, piece, from, occupied);
        if targets.any() {
            visit(from, piece, targets);
        }
    }
    if side == Side::Defenders {
        let piece = Piece {
            side,
            kind: Kind::King,
        };
        let targets = destinations(pos, spec, piece, king, occupied);
        if targets.any() {
            visit(king, piece, targets);
        }
    }
}

/// The legal moves of `side` counted as [`Tafl::count_moves`] counts them.
#[inline]
fn count_in_bulk<B: Width>(pos: &Pos<B>, spec: &Spec<B>, side: Side) -> usize {
    let taflman = Piece {
        side,
        kind: Kind::Taflman,
    }
    .index();
    let geo = spec.geo;
    let plain = spec.speeds[taflman] >= geo.dim - 1 && spec.no_reenter[taflman].is_empty();
    let occupied = pos.occupied();
    let own = pos.side(side);
    let king = pos.king as usize;
    let taflmen = (own & !pos.specials()).without(king);
    let mut count = 0;
    if plain {
        let empty = geo.all & !occupied;
        let passable = empty & !spec.no_pass[taflman];
        let landing = empty & !spec.no_stop[taflman];
        // Squares a taflman may stop on but not cross.
        let last_stops = landing & spec.no_pass[taflman];
        for d in 0..4 {
            let fill = geo.slide_fill(taflmen, passable, d);
            count += (fill & landing).count();
            if last_stops.any() {
                count += (geo.step(fill, d) & last_stops).count();
            }
        }
    }
    let mut count = count as usize;
    let others = if plain { own & !taflmen } else { own };
    if others.any() {
        for from in others.squares() {
            let piece = pos.piece_at(from).expect("an own piece");
            count += destinations(pos, spec, piece, from, occupied).count() as usize;
        }
    }
    count
}

impl Tafl {
    /// Appends every legal move of the side to move (the game must not be
    /// over).
    pub(crate) fn generate_moves(&self, moves: &mut MoveList<TaflMove>) {
        let only = self.berserk.map(usize::from);
        with_board!(self, |pos, spec| {
            for_each_piece(pos, spec, self.to_move, only, |from, _, targets| {
                for to in targets.squares() {
                    moves.push(TaflMove::new(from, to));
                }
            })
        });
        if only.is_some() && self.rules.rules_string().berserk == Berserk::CaptureOnly {
            let captures: Vec<TaflMove> = moves
                .iter()
                .copied()
                .filter(|&mv| self.captures_of(mv).any())
                .collect();
            moves.clear();
            moves.extend(captures);
        }
    }

    /// The number of legal moves of the side to move (ignoring whether the
    /// game is over). The taflmen are counted in bulk where they move
    /// alike: in each direction every square a taflman slides over and may
    /// stop on is one move of exactly one taflman (the nearest behind it),
    /// and a square it may stop on but not pass is one move of the taflman
    /// whose slide ends just before it. The other pieces are counted one by
    /// one, each by its set of destinations.
    pub(crate) fn count_moves(&self) -> usize {
        if self.berserk.is_some() {
            let mut moves = MoveList::new();
            self.generate_moves(&mut moves);
            return moves.len();
        }
        with_board!(self, |pos, spec| count_in_bulk(pos, spec, self.to_move))
    }

    /// Whether the side to move has a legal move.
    pub(crate) fn has_legal_move(&self) -> bool {
        if self.berserk.is_some() {
            return self.count_moves() > 0;
        }
        with_board!(self, |pos, spec| {
            let occupied = pos.occupied();
            // Almost always a taflman has a free neighbour to step to.
            let taflman = Piece {
                side: self.to_move,
                kind: Kind::Taflman,
            };
            let index = taflman.index();
            let steppers = (pos.side(self.to_move) & !pos.specials()).without(pos.king as usize);
            let free = spec.geo.all & !occupied & !spec.no_stop[index] & !spec.no_reenter[index];
            if (spec.geo.around(steppers) & free).any() {
                return true;
            }
            let mut any = false;
            for_each_piece(pos, spec, self.to_move, None, |_, _, _| any = true);
            any
        })
    }

    /// Whether `mv` is one of the legal moves.
    pub(crate) fn is_legal(&self, mv: TaflMove) -> bool {
        let from = usize::from(mv.from);
        if self
            .berserk
            .is_some_and(|square| usize::from(square) != from)
        {
            return false;
        }
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        if piece.side != self.to_move {
            return false;
        }
        let reachable = with_board!(self, |pos, spec| {
            destinations(pos, spec, piece, from, pos.occupied()).has(mv.to.into())
        });
        reachable
            && (self.berserk.is_none()
                || self.rules.rules_string().berserk != Berserk::CaptureOnly
                || self.captures_of(mv).any())
    }
}
