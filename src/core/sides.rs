//! The two sides of a two-player game, written once: every such game names
//! its sides (attackers and defenders, dwarfs and trolls) and gets the same
//! type from [`two_sides!`].

/// Defines the enum of a two-player game's sides: the first moves first and
/// is player 0. The names are the sides' names in text and reports; the
/// aliases are what [`parse`](#method.parse) also accepts (any case).
///
/// ```
/// norn::two_sides! {
///     /// The two sides. Attackers move first.
///     pub enum Side {
///         Attackers = "attackers" | "attacker" | "a",
///         Defenders = "defenders" | "defender" | "d",
///     }
/// }
///
/// assert_eq!(Side::parse("A"), Some(Side::Attackers));
/// assert_eq!(Side::Attackers.opponent().player(), 1);
/// assert_eq!(Side::from_player(1).to_string(), "defenders");
/// assert_eq!(serde_json::to_string(&Side::Defenders).unwrap(), "\"defenders\"");
/// ```
#[macro_export]
macro_rules! two_sides {
    (
        $(#[$meta:meta])*
        $vis:vis enum $side:ident {
            $first:ident = $first_name:literal $(| $first_alias:literal)*,
            $second:ident = $second_name:literal $(| $second_alias:literal)* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $side {
            #[doc = concat!("`", $first_name, "`, the first side: player 0, which moves first.")]
            $first,
            #[doc = concat!("`", $second_name, "`, the second side: player 1.")]
            $second,
        }

        impl $side {
            /// Both sides, the first mover first.
            pub const BOTH: [$side; 2] = [$side::$first, $side::$second];

            /// The player index: the first mover is player 0.
            pub const fn player(self) -> usize {
                match self {
                    $side::$first => 0,
                    $side::$second => 1,
                }
            }

            /// The side of player `player` (any index but 0 is the second side).
            pub const fn from_player(player: usize) -> $side {
                if player == 0 { $side::$first } else { $side::$second }
            }

            /// The other side.
            pub const fn opponent(self) -> $side {
                match self {
                    $side::$first => $side::$second,
                    $side::$second => $side::$first,
                }
            }

            /// The side's name as text, reports, `Display` and serde write it
            /// (the first of the names [`parse`](Self::parse) accepts).
            pub const fn name(self) -> &'static str {
                match self {
                    $side::$first => $first_name,
                    $side::$second => $second_name,
                }
            }

            /// Reads a side by its name or an alias, in any case.
            pub fn parse(text: &str) -> Option<$side> {
                match text.to_ascii_lowercase().as_str() {
                    $first_name $(| $first_alias)* => Some($side::$first),
                    $second_name $(| $second_alias)* => Some($side::$second),
                    _ => None,
                }
            }

            /// Reads the side-to-move word of a position text: the first
            /// side when the word is left out.
            pub fn parse_to_move(word: Option<&str>) -> Result<$side, String> {
                match word {
                    None => Ok($side::$first),
                    Some(word) => $side::parse(word).ok_or_else(|| {
                        format!(
                            "`{word}` is not a side to move ({} or {})",
                            $first_name, $second_name
                        )
                    }),
                }
            }
        }

        impl std::fmt::Display for $side {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        /// A side is written as its name.
        impl $crate::serde::Serialize for $side {
            fn serialize<S: $crate::serde::Serializer>(
                &self,
                serializer: S,
            ) -> Result<S::Ok, S::Error> {
                serializer.serialize_unit_variant(
                    stringify!($side),
                    self.player() as u32,
                    self.name(),
                )
            }
        }
    };
}

/// The items of `impl Game` that every two-sided game of turns writes the
/// same way, from the parts of its state the crate's board games share by
/// convention: the fields `rules`, `to_move` (a side of [`two_sides!`]),
/// `ending: Option<EndReason>`, `hash` and `ply`, and the methods
/// `Self::start(rules)`, `winner(&self, EndReason) -> Option<Side>` (`None`
/// for a draw), `generate_moves(&self, &mut MoveList<Move>)`,
/// `count_moves(&self)` and `apply_move(&mut self, Move)` (which also
/// decides the end of the game); `EndReason` names itself with
/// `name(self) -> &'static str`. The game writes the rest: its types and
/// constants, and `check_move` with its explanations.
///
/// The outcome of an ending is then a win, a loss or a draw
/// ([`Outcome::win_or_draw`](crate::core::Outcome::win_or_draw)). A game
/// scored otherwise, by a margin say, gives the outcome itself after its
/// side, from the state and the reason the game ended:
/// `two_sided_turns!(Side, |battle, reason| battle.outcome(reason))`, and
/// needs no `winner`.
///
/// A game that follows only some of the conventions takes the parts it
/// follows: [`two_sided_players!`](crate::two_sided_players),
/// [`moves_until_ending!`](crate::moves_until_ending) and
/// [`hash_and_ply_fields!`](crate::hash_and_ply_fields).
#[macro_export]
macro_rules! two_sided_turns {
    ($side:ident) => {
        $crate::two_sided_turns!($side, |state, reason| {
            $crate::core::Outcome::win_or_draw(
                state.winner(reason).map($side::player),
                reason.name(),
            )
        });
    };
    ($side:ident, |$state:ident, $reason:ident| $outcome:expr) => {
        $crate::two_sided_players!($side);
        $crate::moves_until_ending!();
        $crate::hash_and_ply_fields!();

        fn status(&self) -> $crate::core::Status {
            match self.ending {
                Some($reason) => {
                    let $state = self;
                    $crate::core::Status::Over($outcome)
                }
                None => $crate::core::Status::ToMove(self.to_move.player()),
            }
        }

        fn play(&mut self, mv: Self::Move) {
            self.apply_move(mv);
        }
    };
}

/// The items of `impl Game` that name the players of a two-sided game:
/// `new` from `Self::start(rules)`, `rules` from the field `rules`, two
/// players, and each named by its side of [`two_sides!`].
#[macro_export]
macro_rules! two_sided_players {
    ($side:ident) => {
        fn new(rules: Self::Rules) -> Self {
            Self::start(rules)
        }

        fn rules(&self) -> &Self::Rules {
            &self.rules
        }

        fn num_players(&self) -> usize {
            2
        }

        fn player_name(&self, player: $crate::core::Player) -> String {
            $side::from_player(player).name().to_string()
        }
    };
}

/// The items of `impl Game` that list and count the moves of a game whose
/// state records its end in the field `ending: Option<_>`: no moves once
/// it is set, otherwise those of the methods
/// `generate_moves(&self, &mut MoveList<Move>)` and `count_moves(&self)`.
#[macro_export]
macro_rules! moves_until_ending {
    () => {
        fn legal_moves(&self, moves: &mut $crate::core::MoveList<Self::Move>) {
            moves.clear();
            if self.ending.is_none() {
                self.generate_moves(moves);
            }
        }

        fn count_legal_moves(&self, _scratch: &mut $crate::core::MoveList<Self::Move>) -> usize {
            if self.ending.is_some() {
                return 0;
            }
            self.count_moves()
        }
    };
}

/// The items of `impl Game` that a state keeping its Zobrist hash and its
/// ply count in the fields `hash` and `ply` writes the same way.
#[macro_export]
macro_rules! hash_and_ply_fields {
    () => {
        fn hash(&self) -> u64 {
            self.hash
        }

        fn ply(&self) -> u32 {
            self.ply
        }
    };
}

#[cfg(test)]
mod tests {
    two_sides! {
        /// Test sides.
        enum Side {
            North = "north" | "n",
            South = "south",
        }
    }

    #[test]
    fn sides_know_their_player_opponent_and_names() {
        for side in Side::BOTH {
            assert_eq!(Side::from_player(side.player()), side);
            assert_ne!(side.opponent(), side);
            assert_eq!(Side::parse(side.name()), Some(side));
            assert_eq!(side.to_string(), side.name());
        }
        assert_eq!(Side::parse("N"), Some(Side::North));
        assert_eq!(Side::parse("west"), None);
        assert_eq!(serde_json::to_string(&Side::South).unwrap(), "\"south\"");
    }

    #[test]
    fn the_side_to_move_defaults_to_the_first_and_names_both_when_wrong() {
        assert_eq!(Side::parse_to_move(None), Ok(Side::North));
        assert_eq!(Side::parse_to_move(Some("South")), Ok(Side::South));
        assert_eq!(
            Side::parse_to_move(Some("west")),
            Err("`west` is not a side to move (north or south)".to_string())
        );
    }
}
