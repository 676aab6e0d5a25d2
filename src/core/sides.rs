//! The two sides of a two-player game, written once: every such game names
//! its sides (attackers and defenders, dwarfs and trolls) and gets the same
//! type from [`two_sides!`].

/// Defines the enum of a two-player game's sides: the first moves first and
/// is player 0. The names are the sides' names in text and reports; the
/// aliases are what [`parse`](#method.parse) also accepts (any case).
///
/// ```ignore
/// two_sides! {
///     /// The two sides. Attackers move first.
///     pub enum Side {
///         Attackers = "attackers" | "attacker" | "a",
///         Defenders = "defenders" | "defender" | "d",
///     }
/// }
/// ```
macro_rules! two_sides {
    (
        $(#[$meta:meta])*
        $vis:vis enum $side:ident {
            $first:ident = $first_name:literal $(| $first_alias:literal)*,
            $second:ident = $second_name:literal $(| $second_alias:literal)* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
        #[serde(rename_all = "lowercase")]
        $vis enum $side {
            $first,
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

            pub const fn opponent(self) -> $side {
                match self {
                    $side::$first => $side::$second,
                    $side::$second => $side::$first,
                }
            }

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
        }

        impl std::fmt::Display for $side {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

pub(crate) use two_sides;

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
}
