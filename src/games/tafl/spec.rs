//! A rules string compiled for play: the position's sets of squares, and
//! per piece the squares it may not pass, stop on or come back to and
//! the squares hostile to it, at the set width of the board's size.
//!
//! Compiled rules are kept once per distinct rules string for the life of
//! the process ([`intern`]), so that a state holds them by a plain
//! reference: cloning a state for search copies a pointer, where a shared
//! count would be written by every thread on every clone.

use super::bits::{Bits, Words};
use super::board::{Geometry, Side, Width};
use super::pieces::{Kind, Piece};
use super::rules_string::{Escape, Jump, KingStrength, Region, RulesString, Shieldwall};
use super::variants::{VARIANTS, Variant};
use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, OnceLock};

/// The pieces on a board: each side's squares (the king among the
/// defenders'), the squares of the kinds other than taflmen and the king
/// (of either side), and the king's square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos<B> {
    /// The attackers' and the defenders' pieces, by [`Side::player`].
    pub sides: [B; 2],
    /// Commanders, knights, mercenaries and guards of either side, in
    /// the order of [`Kind::SPECIAL`].
    pub kinds: [B; 4],
    /// The king's square.
    pub king: u16,
}

/// The slot in [`Pos::kinds`] of a kind that has one.
#[inline]
pub const fn kind_slot(kind: Kind) -> Option<usize> {
    match kind {
        Kind::Commander => Some(0),
        Kind::Knight => Some(1),
        Kind::Mercenary => Some(2),
        Kind::Guard => Some(3),
        Kind::Taflman | Kind::King => None,
    }
}

impl<B: Bits> Pos<B> {
    /// No piece (and the king on square 0, to be placed).
    pub const EMPTY: Pos<B> = Pos {
        sides: [B::EMPTY; 2],
        kinds: [B::EMPTY; 4],
        king: 0,
    };

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> B {
        self.sides[0] | self.sides[1]
    }

    /// The pieces of `side`.
    #[inline]
    pub fn side(&self, side: Side) -> B {
        self.sides[side.player()]
    }

    /// The squares of commanders, knights, mercenaries and guards.
    #[inline]
    pub fn specials(&self) -> B {
        self.kinds[0] | self.kinds[1] | self.kinds[2] | self.kinds[3]
    }

    /// The guards of either side.
    #[inline]
    pub fn guards(&self) -> B {
        self.kinds[3]
    }

    /// The piece on `index`, if any.
    pub fn piece_at(&self, index: usize) -> Option<Piece> {
        let side = if self.sides[0].has(index) {
            Side::Attackers
        } else if self.sides[1].has(index) {
            Side::Defenders
        } else {
            return None;
        };
        let kind = if side == Side::Defenders && index == self.king as usize {
            Kind::King
        } else {
            Kind::SPECIAL
                .into_iter()
                .find(|&kind| self.kinds[kind_slot(kind).expect("a special kind")].has(index))
                .unwrap_or(Kind::Taflman)
        };
        Some(Piece { side, kind })
    }

    /// Puts `piece` on the empty square `index`.
    pub fn place(&mut self, piece: Piece, index: usize) {
        self.sides[piece.side.player()] |= B::bit(index);
        if piece.kind == Kind::King {
            self.king = index as u16;
        }
        if let Some(slot) = kind_slot(piece.kind) {
            self.kinds[slot] |= B::bit(index);
        }
    }

    /// The position of pieces given square by square.
    pub fn from_pieces(pieces: impl IntoIterator<Item = (usize, Piece)>) -> Pos<B> {
        let mut pos = Pos::EMPTY;
        for (index, piece) in pieces {
            pos.place(piece, index);
        }
        pos
    }
}

/// The rules compiled for sets of width `B`.
pub struct Spec<B: 'static> {
    /// The board's tables.
    pub geo: &'static Geometry<B>,
    /// The squares of each region, by [`Region`].
    pub regions: [B; 4],
    /// Every square of a region.
    pub special: B,
    /// Per piece index: the empty squares it may not pass over.
    pub no_pass: [B; 12],
    /// Per piece index: the squares it may not stop on.
    pub no_stop: [B; 12],
    /// Per piece index: the regions it may not end a move in when it
    /// comes from outside them.
    pub no_reenter: [B; 12],
    /// Per piece index: the corner and fortress squares hostile to it.
    pub hostile_fixed: [B; 12],
    /// Per piece index: the centre squares hostile to it while occupied.
    pub hostile_centre_full: [B; 12],
    /// Per piece index: the centre squares hostile to it while empty.
    pub hostile_centre_empty: [B; 12],
    /// The squares the king escapes on.
    pub escape: B,
    /// The centre squares and their neighbours: where a centre-strong
    /// king is strong.
    pub near_centre: B,
    /// The start position.
    pub start: Pos<B>,
    /// Whether the king captures as hammer and as anvil.
    pub king_hammer: bool,
    /// See [`KingArmed::anvil`].
    pub king_anvil: bool,
    /// How the king is captured.
    pub king_strength: KingStrength,
    /// The jump of each kind, by [`Kind`].
    pub jumps: [Jump; 6],
    /// Per piece index, the most squares it moves (`usize::MAX` for none).
    pub speeds: [usize; 12],
    /// Whether any kind of piece jumps.
    pub jumping: bool,
    /// Shieldwall captures.
    pub shieldwall: Shieldwall,
    /// Whether only a flanking move takes a shieldwall.
    pub shieldwall_flank: bool,
    /// The squares a move to which may take a shieldwall: none without
    /// shieldwalls, the edge, and under `swf:n` the ring inside it too.
    pub shieldwall_reach: B,
    /// Whether Linnaean captures happen.
    pub linnaean: bool,
}

impl<B: Width> Spec<B> {
    /// Compiles `rules` (read and checked) for width `B`.
    fn new(rules: &RulesString) -> Spec<B> {
        let geo = B::geometry(rules.dim);
        let regions: [B; 4] =
            Region::ALL.map(|region| B::of(rules.squares[region as usize].iter().copied()));
        let special = regions.iter().fold(B::EMPTY, |all, &set| all | set);
        let per_piece = |test: &dyn Fn(Region, Piece) -> bool| -> [B; 12] {
            std::array::from_fn(|index| {
                let piece = Piece::from_index(index);
                Region::ALL
                    .into_iter()
                    .filter(|&region| test(region, piece))
                    .fold(B::EMPTY, |set, region| set | regions[region as usize])
            })
        };
        let region_rules = |region: Region| rules.regions[region as usize];
        let no_pass = per_piece(&|region, piece| !region_rules(region).pass.contains(piece));
        let no_stop = per_piece(&|region, piece| !region_rules(region).stop.contains(piece));
        let no_reenter = per_piece(&|region, piece| !region_rules(region).reenter.contains(piece));
        let hostile_fixed = per_piece(&|region, piece| {
            region != Region::Centre && region_rules(region).hostile.contains(piece)
        });
        let hostile_centre_full = per_piece(&|region, piece| {
            region == Region::Centre && region_rules(region).hostile.contains(piece)
        });
        let hostile_centre_empty = per_piece(&|region, piece| {
            region == Region::Centre && rules.centre_hostile_empty.contains(piece)
        });
        let centre = regions[Region::Centre as usize];
        let speeds = rules
            .speeds
            .map(|speed| usize::try_from(speed).unwrap_or(usize::MAX));
        Spec {
            geo,
            regions,
            special,
            no_pass,
            no_stop,
            no_reenter,
            hostile_fixed,
            hostile_centre_full,
            hostile_centre_empty,
            escape: match rules.escape {
                Escape::Corner => regions[Region::Corner as usize],
                Escape::Edge => geo.edge,
            },
            near_centre: centre | geo.around(centre),
            start: Pos::from_pieces(
                (0..geo.len()).filter_map(|index| rules.start[index].map(|piece| (index, piece))),
            ),
            king_hammer: rules.king_armed.hammer(),
            king_anvil: rules.king_armed.anvil(),
            king_strength: rules.king_strength,
            jumps: rules.jumps,
            speeds,
            jumping: rules.jumps.iter().any(|&jump| jump != Jump::None),
            shieldwall: rules.shieldwall,
            shieldwall_flank: rules.shieldwall_flank,
            shieldwall_reach: match (rules.shieldwall, rules.shieldwall_flank) {
                (Shieldwall::None, _) => B::EMPTY,
                (_, true) => geo.edge,
                (_, false) => geo.edge | geo.around(geo.edge),
            },
            linnaean: rules.linnaean,
        }
    }

    /// The squares hostile to `piece` (an anvil against it) as the board
    /// stands, besides the pieces of its enemies.
    #[inline]
    pub fn hostile_squares(&self, piece: usize, occupied: B) -> B {
        self.hostile_fixed[piece]
            | (self.hostile_centre_full[piece] & occupied)
            | (self.hostile_centre_empty[piece] & !occupied)
    }

    /// The region `index` is in, as a set (empty off the regions).
    #[inline]
    pub fn region_of(&self, index: usize) -> B {
        if !self.special.has(index) {
            return B::EMPTY;
        }
        self.regions
            .iter()
            .copied()
            .find(|region| region.has(index))
            .unwrap_or(B::EMPTY)
    }
}

/// The compiled rules at the width of their board.
// Compiled once per rules string and kept behind a reference, never
// copied: the size of the largest width costs nothing.
#[allow(clippy::large_enum_variant)]
pub enum AnySpec {
    /// 7x7.
    W64(Spec<u64>),
    /// 9x9 and 11x11.
    W128(Spec<u128>),
    /// 13x13 and 15x15.
    W256(Spec<Words<4>>),
    /// 17x17 and 19x19.
    W384(Spec<Words<6>>),
}

/// A rules string compiled once for the process.
pub struct Compiled {
    /// The rules string read.
    pub string: RulesString,
    /// Its canonical text.
    pub text: String,
    /// The built-in variant whose rules these are, if any.
    pub variant: Option<&'static Variant>,
    /// The rules for play.
    pub spec: AnySpec,
    /// The picture's frame of the board, drawn when first needed.
    pub frame: OnceLock<String>,
}

impl Compiled {
    fn new(string: RulesString, variant: Option<&'static Variant>) -> Compiled {
        let squares = string.dim * string.dim;
        let spec = if squares <= 64 {
            AnySpec::W64(Spec::new(&string))
        } else if squares <= 128 {
            AnySpec::W128(Spec::new(&string))
        } else if squares <= 256 {
            AnySpec::W256(Spec::new(&string))
        } else {
            AnySpec::W384(Spec::new(&string))
        };
        Compiled {
            text: string.to_string(),
            string,
            variant,
            spec,
            frame: OnceLock::new(),
        }
    }
}

/// The most distinct rules strings one process compiles: each is kept
/// for the life of the process, and the bound keeps a stream of new
/// strings (an engine told new rules over and over) from growing memory
/// without end.
pub const MAX_COMPILED: usize = 1024;

/// The built-in variants' rules, read once.
static VARIANT_RULES: LazyLock<Vec<&'static Compiled>> = LazyLock::new(|| {
    VARIANTS
        .iter()
        .map(|variant| {
            let string: RulesString = variant
                .rules
                .parse()
                .unwrap_or_else(|error| panic!("{}: {error}", variant.name));
            &*Box::leak(Box::new(Compiled::new(string, Some(variant))))
        })
        .collect()
});

/// The compiled rules of built-in variant number `index` of [`VARIANTS`].
pub fn variant_rules(index: usize) -> &'static Compiled {
    VARIANT_RULES[index]
}

/// The compiled rules of `string`: a built-in variant's if the rules are
/// one's, else those compiled before for equal rules, else compiled now.
///
/// # Errors
/// When [`MAX_COMPILED`] rules strings have been compiled already.
pub fn intern(string: RulesString) -> Result<&'static Compiled, String> {
    if let Some(compiled) = VARIANT_RULES
        .iter()
        .find(|compiled| compiled.string == string)
    {
        return Ok(compiled);
    }
    static TABLE: LazyLock<Mutex<HashMap<RulesString, &'static Compiled>>> =
        LazyLock::new(|| Mutex::new(HashMap::new()));
    let mut table = TABLE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(compiled) = table.get(&string) {
        return Ok(compiled);
    }
    if table.len() >= MAX_COMPILED {
        return Err(format!(
            "this process has read {MAX_COMPILED} different rules strings already, the most it keeps"
        ));
    }
    let compiled: &'static Compiled = Box::leak(Box::new(Compiled::new(string.clone(), None)));
    table.insert(string, compiled);
    Ok(compiled)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_compiles_at_the_width_of_its_board() {
        for (index, variant) in VARIANTS.iter().enumerate() {
            let compiled = variant_rules(index);
            assert_eq!(compiled.variant, Some(variant));
            let again = intern(compiled.text.parse().unwrap()).unwrap();
            assert!(std::ptr::eq(again, compiled), "{}", variant.name);
            let fits = matches!(
                (&compiled.spec, compiled.string.dim),
                (AnySpec::W64(_), 7)
                    | (AnySpec::W128(_), 9 | 11)
                    | (AnySpec::W256(_), 13 | 15)
                    | (AnySpec::W384(_), 19)
            );
            assert!(fits, "{}", variant.name);
        }
    }

    #[test]
    fn the_defaults_compile_to_the_rules_page_s_regions() {
        let fetlar = variant_rules(5);
        assert_eq!(fetlar.string.dim, 11);
        let AnySpec::W128(spec) = &fetlar.spec else {
            panic!("11x11 compiles to 128 bits");
        };
        let attacker = Piece::from_letter('t').unwrap().index();
        let king = Piece::from_letter('K').unwrap().index();
        // Only the king stops on the corners and the throne.
        assert_eq!(spec.no_stop[attacker].count(), 5);
        assert_eq!(spec.no_stop[king].count(), 0);
        // Anyone passes the empty throne; no one but the king passes a corner.
        assert_eq!(
            spec.no_pass[attacker],
            spec.regions[Region::Corner as usize]
        );
        // The throne is hostile to the attackers, full or empty, and to the
        // defenders only while empty.
        let centre = spec.regions[Region::Centre as usize];
        assert_eq!(
            spec.hostile_squares(attacker, centre),
            spec.regions[0] | centre
        );
        let defender = Piece::from_letter('T').unwrap().index();
        assert_eq!(spec.hostile_squares(defender, centre), spec.regions[0]);
        assert_eq!(spec.hostile_squares(defender, 0), spec.regions[0] | centre);
    }
}
