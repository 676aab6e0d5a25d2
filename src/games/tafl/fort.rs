//! The two endings that look at the whole board: encirclement (no
//! defender can reach the edge) and the defenders' edge fort.

use super::board::{Side, Width, opposite};
use super::movegen::destinations;
use super::pieces::{Kind, Piece};
use super::rules_string::{Jump, Shieldwall};
use super::spec::{Pos, Spec, kind_slot};

/// Whether no defender, king included, can reach the edge through squares
/// free of attackers (an orthogonal flood fill).
pub(crate) fn is_encircled<B: Width>(pos: &Pos<B>, spec: &Spec<B>) -> bool {
    let geo = spec.geo;
    let passable = geo.all & !pos.side(Side::Attackers);
    let mut reached = pos.side(Side::Defenders);
    loop {
        if reached.meets(geo.edge) {
            return false;
        }
        let next = reached | (geo.around(reached) & passable);
        if next == reached {
            return true;
        }
        reached = next;
    }
}

/// Whether the king, standing on the edge after a defender move, is inside
/// an edge fort: he can move, no attacker is inside with him, and no
/// sequence of attacker moves can capture any defender of the wall.
///
/// The test is sound, not complete: it declares a fort only when every
/// wall defender is provably safe ([`unbreakable_defenders`]). It declares
/// none while an attacker piece can jump, since a jump crosses a wall.
pub(crate) fn is_edge_fort<B: Width>(pos: &Pos<B>, spec: &Spec<B>) -> bool {
    let geo = spec.geo;
    let king = pos.king as usize;
    if !geo.edge.has(king) {
        return false;
    }
    let attackers = pos.side(Side::Attackers);
    let jumpers = Kind::SPECIAL
        .into_iter()
        .filter(|&kind| spec.jumps[kind as usize] != Jump::None)
        .filter_map(kind_slot)
        .fold(B::EMPTY, |set, slot| set | pos.kinds[slot]);
    if attackers.meets(jumpers) {
        return false;
    }
    let king_piece = Piece {
        side: Side::Defenders,
        kind: Kind::King,
    };
    if destinations(pos, spec, king_piece, king, pos.occupied()).is_empty() {
        return false;
    }
    let defenders = pos.side(Side::Defenders).without(king);
    let inside = geo.flood(B::bit(king), geo.all & !defenders);
    if inside.meets(attackers) {
        return false;
    }
    let wall = geo.around(inside) & defenders;
    (wall & !unbreakable_defenders(pos, spec, inside)).is_empty()
}

/// The largest set of defenders that can never be captured while none of
/// them moves, given the fort's `inside` (squares attackers can never
/// enter while the wall stands).
///
/// A guard is never captured. Another defender is kept when, on each
/// axis, one of its two neighbours can never become hostile: off the
/// board, inside the fort on a square of no region (a region's square may
/// be hostile), or another kept defender. Under shieldwall rules a
/// defender on the edge must also be out of a wall's reach: the square in
/// front of it can never hold an attacker, or a square beside it along the
/// edge is inside the fort (an end that cannot be closed). Starting from
/// all defenders and removing those that fail, the first capture of a
/// kept defender would need a hostile neighbour that cannot exist, so
/// none is ever captured.
fn unbreakable_defenders<B: Width>(pos: &Pos<B>, spec: &Spec<B>, inside: B) -> B {
    let geo = spec.geo;
    let never_hostile_inside = inside & !spec.special;
    let guards = pos.guards();
    let mut safe = pos.side(Side::Defenders).without(pos.king as usize);
    loop {
        let shelter = safe | never_hostile_inside;
        let covers = |square: Option<usize>| square.is_none_or(|s| shelter.has(s));
        let mut kept = safe;
        for defender in (safe & !guards).squares() {
            let vertical = covers(geo.neighbour(defender, 0)) || covers(geo.neighbour(defender, 2));
            let horizontal =
                covers(geo.neighbour(defender, 1)) || covers(geo.neighbour(defender, 3));
            let shielded = spec.shieldwall == Shieldwall::None
                || (0..4).all(|inward| {
                    if geo.neighbour(defender, opposite(inward)).is_some() {
                        return true;
                    }
                    let front = geo.neighbour(defender, inward);
                    let open_end = [(inward + 1) % 4, (inward + 3) % 4]
                        .into_iter()
                        .any(|side| {
                            geo.neighbour(defender, side)
                                .is_some_and(|s| never_hostile_inside.has(s))
                        });
                    covers(front) || open_end
                });
            if !(vertical && horizontal && shielded) {
                kept = kept.without(defender);
            }
        }
        if kept == safe {
            return safe;
        }
        safe = kept;
    }
}
