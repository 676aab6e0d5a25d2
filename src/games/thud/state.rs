//! What the states of both Thud games share: the layout of their Zobrist
//! keys and the hash computed from the pieces, the fields both states have
//! with the same meaning, their accessors, and the shared ends.

use super::board::Side;
use crate::bitboard::{Bitboard256, Square};
use crate::core::zobrist::zobrist_keys;
use crate::core::{Game, IllegalMove, MoveList};

/// The Zobrist keys of a Thud game, `N` of them: one per square for a
/// dwarf (`0..256`), one per square for a troll (`256..512`), in Koom
/// Valley Thud one per square for the Rock (`512..768`), and the last for
/// "trolls to move". Classic Thud's Thudstone never moves and has no keys.
pub(crate) struct ZobristKeys<const N: usize>([u64; N]);

impl<const N: usize> ZobristKeys<N> {
    /// The keys drawn from `seed`; each game has its own seed.
    pub(crate) const fn new(seed: u64) -> Self {
        ZobristKeys(zobrist_keys(seed))
    }

    /// The key of a dwarf on `square`.
    #[inline]
    pub(crate) fn dwarf(&self, square: Square) -> u64 {
        self.0[square.index()]
    }

    /// The key of a troll on `square`.
    #[inline]
    pub(crate) fn troll(&self, square: Square) -> u64 {
        self.0[256 + square.index()]
    }

    /// The key of the Rock on `square` (Koom Valley Thud only).
    #[inline]
    pub(crate) fn rock(&self, square: Square) -> u64 {
        self.0[2 * 256 + square.index()]
    }

    /// The key XORed in while the trolls are to move.
    #[inline]
    pub(crate) fn trolls_to_move(&self) -> u64 {
        self.0[N - 1]
    }

    /// The hash of the two armies and the side to move, computed from
    /// scratch (the states update theirs move by move).
    pub(crate) fn armies(&self, dwarfs: Bitboard256, trolls: Bitboard256, to_move: Side) -> u64 {
        let mut hash = 0;
        for square in dwarfs.squares() {
            hash ^= self.dwarf(square);
        }
        for square in trolls.squares() {
            hash ^= self.troll(square);
        }
        if to_move == Side::Trolls {
            hash ^= self.trolls_to_move();
        }
        hash
    }
}

/// Declares a Thud game's `EndReason` and its state: the ends both games
/// share after the game's own, and the fields both states have with the
/// game's own after the armies, with `from_valid_setup`, which fills them
/// from a validated [`ThudSetup`](super::ThudSetup). The game's own fields
/// are written with their values, an expression of the setup (named
/// `$setup`).
macro_rules! thud_state {
    (
        $(#[$reason_meta:meta])*
        pub enum EndReason {
            $( $(#[$own_reason_meta:meta])* $own_reason:ident = $own_name:literal, )*
        }

        $(#[$meta:meta])*
        pub struct $state:ident {
            rules: $rules:ty,
            $( $(#[$field_meta:meta])* $field:ident: $field_ty:ty = $value:expr, )*
        }

        from_valid_setup($setup:ident)
    ) => {
        $(#[$reason_meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, ::serde::Serialize)]
        #[serde(rename_all = "kebab-case")]
        pub enum EndReason {
            $( $(#[$own_reason_meta])* $own_reason, )*
            /// The side to move had no legal move.
            NoMoves,
            /// The limit of plies without a capture (or in Koom Valley Thud
            /// a Rock move) was reached.
            NoCaptureLimit,
            /// The total ply limit was reached.
            PlyLimit,
        }

        impl EndReason {
            /// The reason's name in records and reports.
            pub const fn name(self) -> &'static str {
                match self {
                    $( EndReason::$own_reason => $own_name, )*
                    EndReason::NoMoves => "no-moves",
                    EndReason::NoCaptureLimit => "no-capture-limit",
                    EndReason::PlyLimit => "ply-limit",
                }
            }
        }

        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct $state {
            pub(crate) dwarfs: $crate::bitboard::Bitboard256,
            pub(crate) trolls: $crate::bitboard::Bitboard256,
            $( $(#[$field_meta])* pub(crate) $field: $field_ty, )*
            pub(crate) to_move: $crate::games::thud::Side,
            pub(crate) ply: u32,
            /// Plies since the last capture (or in Koom Valley Thud the
            /// last Rock move).
            pub(crate) quiet_plies: u32,
            pub(crate) hash: u64,
            pub(crate) rules: $rules,
            pub(crate) ending: Option<EndReason>,
        }

        impl $state {
            #[doc = concat!("The state of a setup that passes [`", stringify!($state), "::from_setup`]'s checks.")]
            pub(super) fn from_valid_setup(
                $setup: &$crate::games::thud::ThudSetup,
                rules: $rules,
            ) -> $state {
                let mut state = $state {
                    dwarfs: $setup.dwarfs,
                    trolls: $setup.trolls,
                    $( $field: $value, )*
                    to_move: $setup.to_move,
                    ply: $setup.ply,
                    quiet_plies: $setup.quiet_plies,
                    hash: 0,
                    rules,
                    ending: None,
                };
                state.hash = state.hash_from_scratch();
                state.ending = state.ending_now();
                state
            }
        }
    };
}

pub(crate) use thud_state;

/// The accessors of the fields both Thud states have (`dwarfs`, `trolls`,
/// `to_move`, `quiet_plies`, `ending`), written once for both.
macro_rules! army_accessors {
    ($ending:ty) => {
        /// The squares of the dwarfs.
        pub fn dwarfs(&self) -> Bitboard256 {
            self.dwarfs
        }

        /// The squares of the trolls.
        pub fn trolls(&self) -> Bitboard256 {
            self.trolls
        }

        /// The side whose turn it is.
        pub fn side_to_move(&self) -> Side {
            self.to_move
        }

        /// Plies since the last capture (in Koom Valley Thud, since the
        /// last capture or Rock move): the no-capture limit counts them.
        pub fn quiet_plies(&self) -> u32 {
            self.quiet_plies
        }

        /// Why the game ended, if it has.
        pub fn ending(&self) -> Option<$ending> {
            self.ending
        }
    };
}

pub(crate) use army_accessors;

/// The rules both Thud games apply alike after a move: passing the turn
/// with its counters, and the ends both have, which each game checks after
/// its own. The expanding module names its `KEYS`, its `EndReason` and
/// `limit_reached`.
macro_rules! shared_turn_rules {
    () => {
        /// Passes the turn after a move: the side to move and its hash key,
        /// the ply counters (`progress`, a capture or in Koom Valley Thud
        /// a Rock move, resets the quiet plies), then whether the game is
        /// over.
        #[inline]
        fn pass_turn(&mut self, progress: bool) {
            self.to_move = self.to_move.opponent();
            self.hash ^= KEYS.trolls_to_move();
            // Position texts may start the counters anywhere, up to u32::MAX.
            self.ply = self.ply.saturating_add(1);
            self.quiet_plies = if progress {
                0
            } else {
                self.quiet_plies.saturating_add(1)
            };
            self.ending = self.ending_now();
        }

        /// The ends both games share, in order: no legal move for the side
        /// to move, then the no-capture limit, then the ply limit.
        fn stalemate_or_limit(&self) -> Option<EndReason> {
            if !self.has_legal_move() {
                return Some(EndReason::NoMoves);
            }
            if limit_reached(self.rules.no_capture_limit, self.quiet_plies) {
                return Some(EndReason::NoCaptureLimit);
            }
            if limit_reached(self.rules.ply_limit, self.ply) {
                return Some(EndReason::PlyLimit);
            }
            None
        }
    };
}

pub(crate) use shared_turn_rules;

/// `Ok` if `mv` is one of the legal moves of `state`, and otherwise the
/// refusal that `explain` words in the terms of the game's rules.
pub(crate) fn check_listed<G: Game>(
    state: &G,
    mv: G::Move,
    explain: impl FnOnce() -> String,
) -> Result<(), IllegalMove> {
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    if moves.contains(&mv) {
        Ok(())
    } else {
        Err(IllegalMove::new(explain()))
    }
}
