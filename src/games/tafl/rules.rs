//! Playing a move: the piece moves, custodial, jump and shieldwall
//! captures, the king's capture, berserk continuations, the repetition
//! history, and the ends of the game.
//!
//! Every capture of a move is decided on the board as it stands once the
//! piece has arrived, before any piece is taken: a mercenary that changes
//! side in a move does not take part in that move's other captures.

use super::bits::Bits;
use super::board::{Side, Width, opposite};
use super::fort::{is_edge_fort, is_encircled};
use super::movegen::jumped_square;
use super::moves::TaflMove;
use super::pieces::{Kind, Piece};
use super::rules_string::{Berserk, Jump, KingStrength, Region, Shieldwall};
use super::spec::{Pos, Spec, kind_slot};
use super::state::{EndReason, Tafl, berserk_key, piece_key, side_key, with_board};
use crate::core::limit_reached;

/// What playing a move did to the pieces.
pub(crate) struct Effects {
    /// The change of the position's hash.
    hash: u64,
    /// Whether any piece was captured (taken, or turned).
    captured: bool,
    /// Whether a piece left the board: earlier positions cannot recur.
    removed: bool,
    /// Whether the king was captured.
    king_captured: bool,
}

/// The pieces a move captures and whether it captures the king.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Captures {
    /// The squares of the pieces taken (or turned, for mercenaries), in
    /// increasing order.
    pub squares: Vec<usize>,
    /// Whether the king is captured.
    pub king: bool,
}

impl Captures {
    /// Whether the move captures anything.
    pub fn any(&self) -> bool {
        self.king || !self.squares.is_empty()
    }
}

/// Moves `piece` from `from` to `to`; the change of the hash.
#[inline]
fn move_piece<B: Bits>(pos: &mut Pos<B>, piece: Piece, from: usize, to: usize) -> u64 {
    let path = B::bit(from) | B::bit(to);
    pos.sides[piece.side.player()] ^= path;
    if let Some(slot) = kind_slot(piece.kind) {
        pos.kinds[slot] ^= path;
    }
    if piece.kind == Kind::King {
        pos.king = to as u16;
    }
    piece_key(piece, from) ^ piece_key(piece, to)
}

/// Whether a piece of `kind` captures when it moves.
#[inline]
fn is_hammer<B: Width>(spec: &Spec<B>, kind: Kind) -> bool {
    match kind {
        Kind::King => spec.king_hammer,
        Kind::Guard => false,
        _ => true,
    }
}

/// The pieces of `side` that close a capture as the far side.
#[inline]
fn anvils<B: Width>(pos: &Pos<B>, spec: &Spec<B>, side: Side) -> B {
    let armed = pos.side(side) & !pos.guards();
    if side == Side::Defenders && !spec.king_anvil {
        armed.without(pos.king as usize)
    } else {
        armed
    }
}

/// The pieces `piece`, just arrived on `to` (over `jumped`, if it jumped),
/// captures, and whether it captures the king.
pub(crate) fn victims<B: Width>(
    pos: &Pos<B>,
    spec: &Spec<B>,
    piece: Piece,
    to: usize,
    jumped: Option<usize>,
) -> (B, bool) {
    let mover = piece.side;
    let enemy = mover.opponent();
    let king = pos.king as usize;
    let guards = pos.guards();
    let mut taken = B::EMPTY;
    if let Some(over) = jumped
        && spec.jumps[piece.kind as usize] == Jump::Capturing
        && !guards.has(over)
        && over != king
    {
        taken |= B::bit(over);
    }
    if !is_hammer(spec, piece.kind) {
        return (taken, false);
    }
    let occupied = pos.occupied();
    let anvils = anvils(pos, spec, mover);
    let enemies = (pos.side(enemy) & !guards).without(king);
    let specials = pos.specials();
    for d in 0..4 {
        let Some(target) = spec.geo.neighbour(to, d) else {
            continue;
        };
        if !enemies.has(target) {
            continue;
        }
        let Some(anvil) = spec.geo.neighbour(target, d) else {
            continue;
        };
        let victim = if specials.has(target) {
            pos.piece_at(target).expect("an enemy piece")
        } else {
            Piece {
                side: enemy,
                kind: Kind::Taflman,
            }
        };
        let hostile = anvils | spec.hostile_squares(victim.index(), occupied);
        if hostile.has(anvil) || is_linnaean(pos, spec, target, anvil) {
            taken |= B::bit(target);
        }
    }
    let king_captured = mover == Side::Attackers && king_is_captured(pos, spec, to);
    if spec.shieldwall_reach.has(to) {
        taken |= shieldwall(pos, spec, piece, to);
    }
    (taken, king_captured)
}

/// Whether the defender on `target` is taken against the occupied
/// throne `anvil`: the king on a centre square with attackers on his
/// other three sides (`linc`).
fn is_linnaean<B: Width>(pos: &Pos<B>, spec: &Spec<B>, target: usize, anvil: usize) -> bool {
    let king = pos.king as usize;
    if !spec.linnaean
        || anvil != king
        || !spec.regions[Region::Centre as usize].has(king)
        || !pos.side(Side::Defenders).has(target)
    {
        return false;
    }
    let others = spec.geo.around(B::bit(king)).without(target);
    let attackers = pos.side(Side::Attackers) & !pos.guards();
    others.count() == 3 && (others & !attackers).is_empty()
}

/// Whether the attacker just arrived on `to` captures the king: beside
/// him, with his other sides as the king's strength needs them (enemies
/// or squares hostile to him).
pub(crate) fn king_is_captured<B: Width>(pos: &Pos<B>, spec: &Spec<B>, to: usize) -> bool {
    let king = pos.king as usize;
    let around = spec.geo.around(B::bit(king));
    if !around.has(to) {
        return false;
    }
    let king_index = Piece {
        side: Side::Defenders,
        kind: Kind::King,
    }
    .index();
    let hostile = (pos.side(Side::Attackers) & !pos.guards())
        | spec.hostile_squares(king_index, pos.occupied());
    let strength = match spec.king_strength {
        KingStrength::CentreStrong if spec.near_centre.has(king) => KingStrength::Strong,
        KingStrength::CentreStrong => KingStrength::Weak,
        strength => strength,
    };
    match strength {
        KingStrength::Strong => around.count() == 4 && (around & !hostile).is_empty(),
        KingStrength::Middleweight => (around & !hostile).is_empty(),
        _ => (0..4).any(|d| {
            spec.geo.neighbour(king, d) == Some(to)
                && spec
                    .geo
                    .neighbour(king, opposite(d))
                    .is_some_and(|anvil| hostile.has(anvil))
        }),
    }
}

/// The edge rows of the opponent's pieces taken by `piece` arriving on
/// `to`: rows of two or more along an edge, closed at both ends by pieces
/// of the mover's side that capture (or, under `sw:s`, a corner), with a
/// piece of the mover's side in front of every member. Under `swf:y` the
/// mover must close an end; under `swf:n` it may also be in front. The
/// king and guards in a row stay; the others are taken.
fn shieldwall<B: Width>(pos: &Pos<B>, spec: &Spec<B>, piece: Piece, to: usize) -> B {
    let geo = spec.geo;
    let friends = pos.side(piece.side);
    let row_pieces = pos.side(piece.side.opponent());
    let corners = match spec.shieldwall {
        Shieldwall::Strong => spec.regions[Region::Corner as usize],
        _ => B::EMPTY,
    };
    let closes = anvils(pos, spec, piece.side) | corners;
    let stays = pos.guards().with(pos.king as usize);
    let faced = |row: B, inward: usize| {
        row.squares().all(|member| {
            geo.neighbour(member, inward)
                .is_some_and(|front| friends.has(front))
        })
    };
    // The pieces of the row from `start` towards `along`, and the square
    // after them.
    let walk = |start: usize, along: usize| {
        let mut row = B::EMPTY;
        let mut cursor = start;
        loop {
            match geo.neighbour(cursor, along) {
                Some(next) if row_pieces.has(next) => {
                    row |= B::bit(next);
                    cursor = next;
                }
                other => return (row, other),
            }
        }
    };
    let mut taken = B::EMPTY;
    for inward in 0..4 {
        let outward = opposite(inward);
        let sideways = [(inward + 1) % 4, (inward + 3) % 4];
        if geo.neighbour(to, outward).is_none() {
            // The mover on the edge, closing one end of a row.
            for along in sideways {
                let (row, closing) = walk(to, along);
                if row.count() >= 2
                    && closing.is_some_and(|end| closes.has(end))
                    && faced(row, inward)
                {
                    taken |= row & !stays;
                }
            }
        } else if !spec.shieldwall_flank
            && let Some(member) = geo.neighbour(to, outward)
            && geo.neighbour(member, outward).is_none()
            && row_pieces.has(member)
        {
            // The mover in front of a member of a row.
            let (first, first_end) = walk(member, sideways[0]);
            let (second, second_end) = walk(member, sideways[1]);
            let row = first | second | B::bit(member);
            let closed = [first_end, second_end]
                .into_iter()
                .all(|end| end.is_some_and(|end| closes.has(end)));
            if row.count() >= 2 && closed && faced(row, inward) {
                taken |= row & !stays;
            }
        }
    }
    taken
}

/// Plays `mv` on the pieces: the piece moves, its captures are taken (a
/// mercenary turns instead).
fn play<B: Width>(pos: &mut Pos<B>, spec: &Spec<B>, mv: TaflMove) -> Effects {
    let (from, to) = (usize::from(mv.from), usize::from(mv.to));
    let piece = pos.piece_at(from).expect("a legal move moves a piece");
    let jumped = jumped_square(pos, spec, from, to);
    let mut hash = move_piece(pos, piece, from, to);
    let (taken, king_captured) = victims(pos, spec, piece, to, jumped);
    let mut removed = false;
    for square in taken.squares() {
        let victim = pos.piece_at(square).expect("a captured piece");
        pos.sides[victim.side.player()] ^= B::bit(square);
        if let Some(slot) = kind_slot(victim.kind) {
            pos.kinds[slot] ^= B::bit(square);
        }
        hash ^= piece_key(victim, square);
        if victim.kind == Kind::Mercenary {
            let turned = Piece {
                side: piece.side,
                kind: Kind::Mercenary,
            };
            pos.place(turned, square);
            hash ^= piece_key(turned, square);
        } else {
            removed = true;
        }
    }
    Effects {
        hash,
        captured: taken.any(),
        removed,
        king_captured,
    }
}

impl Tafl {
    /// Plays a legal move: the piece moves, captures are taken, the turn
    /// passes (or the piece moves again under the berserk rule), the
    /// position is remembered and the game may end.
    #[inline]
    pub(crate) fn apply_move(&mut self, mv: TaflMove) {
        let mover = self.to_move;
        let effects = with_board!(self, |mut pos, spec| play(pos, spec, mv));
        self.hash ^= effects.hash;
        if let Some(square) = self.berserk.take() {
            self.hash ^= berserk_key(square.into());
        }
        if effects.captured
            && !effects.king_captured
            && self.rules.rules_string().berserk != Berserk::None
        {
            // The piece goes on if it can (for `ber:c`, if it can capture).
            self.berserk = Some(mv.to);
            if self.count_moves() > 0 {
                self.hash ^= berserk_key(mv.to.into());
            } else {
                self.berserk = None;
            }
        }
        if self.berserk.is_none() {
            self.to_move = mover.opponent();
            self.hash ^= side_key();
        }
        self.moved_last = mover;
        self.ply += 1;
        self.remember_position(effects.removed);
        self.ending = self.ending_after_move(mover, effects.king_captured);
    }

    /// The pieces `mv` would capture if it were played now, and whether it
    /// would capture the king.
    pub fn captures_of(&self, mv: TaflMove) -> Captures {
        let (from, to) = (usize::from(mv.from), usize::from(mv.to));
        with_board!(self, |pos, spec| {
            let mut after = *pos;
            let piece = pos.piece_at(from).expect("a legal move moves a piece");
            let jumped = jumped_square(pos, spec, from, to);
            move_piece(&mut after, piece, from, to);
            let (taken, king) = victims(&after, spec, piece, to, jumped);
            Captures {
                squares: taken.squares().collect(),
                king,
            }
        })
    }

    /// Records the current position for the repetition rule; a move that
    /// took a piece off the board first forgets every earlier position.
    pub(crate) fn remember_position(&mut self, removed: bool) {
        if self.counts_repetitions() {
            self.history.remember(self.hash, removed);
        }
    }

    /// Whether the king stands on an escape square.
    fn king_escaped(&self) -> bool {
        with_board!(self, |pos, spec| spec.escape.has(pos.king as usize))
    }

    /// The game end that applies to a freshly set-up position: a king
    /// already escaped, or a side to move without moves.
    pub(crate) fn ending_at_setup(&self) -> Option<EndReason> {
        if self.king_escaped() {
            return Some(EndReason::Escape);
        }
        if !self.has_legal_move() {
            return Some(EndReason::NoMoves);
        }
        None
    }

    /// The game end after `mover` played a move, if any: decisive results
    /// first, then repetition, a side without moves and the ply limit.
    fn ending_after_move(&self, mover: Side, king_captured: bool) -> Option<EndReason> {
        match mover {
            Side::Defenders => {
                if self.king_escaped() {
                    return Some(EndReason::Escape);
                }
                if self.rules.rules_string().edge_fort
                    && with_board!(self, |pos, spec| is_edge_fort(pos, spec))
                {
                    return Some(EndReason::ExitFort);
                }
            }
            Side::Attackers => {
                if king_captured {
                    return Some(EndReason::KingCaptured);
                }
                if self.rules.rules_string().surrounding_fatal
                    && with_board!(self, |pos, spec| is_encircled(pos, spec))
                {
                    return Some(EndReason::Encirclement);
                }
            }
        }
        if self.counts_repetitions() && self.history.count(self.hash) >= 3 {
            return Some(EndReason::Repetition);
        }
        if !self.has_legal_move() {
            return Some(EndReason::NoMoves);
        }
        if limit_reached(self.rules.ply_limit, self.ply) {
            return Some(EndReason::PlyLimit);
        }
        None
    }
}
