//! Declarations of the common kinds of option, one macro a kind of field,
//! so that a table of options says per option only its key, its field, its
//! range and its help; and the text impls every declared type has.
//!
//! The macros are exported so that a game written outside the crate
//! declares its rules options the same way.

/// Declares an option kept in the field `$field` of the configuration,
/// given the kind of value it takes and how the field's value is written
/// (`|held| ...`, `held` a reference to the field) and read
/// (`|value| ...`, `value` a [`Value`](crate::core::Value) already checked
/// against the kind); the other macros here are this one with the
/// conversions of common kinds of field:
/// `field_option!("weight", weight, Kind::Number { min: 0.0, max: 1.0 }, "help", |weight| Value::Number(*weight), |value| value.number())`;
/// where the field is written by a function of its value and read by a
/// method of [`Value`](crate::core::Value), those two are enough:
/// `field_option!("weight", weight, Kind::Number { min: 0.0, max: 1.0 }, "help"; Value::Number, number)`;
/// and for an `Option` field of a [`Kind::Optional`](crate::core::Kind::Optional)
/// kind, whose word leaves it `None`, the same two for the value inside:
/// `field_option!("weight", weight, Kind::Optional(&Kind::Number { min: 0.0, max: 1.0 }, "off"), "help"; optional Value::Number, number)`.
#[macro_export]
macro_rules! field_option {
    ($key:literal, $field:ident, $kind:expr, $help:expr; optional $write:path, $read:ident) => {
        $crate::field_option!(
            $key,
            $field,
            $kind,
            $help,
            |held| $crate::core::Value::from_option(*held, $write),
            |value| value.optional(|inner| inner.$read())
        )
    };
    ($key:literal, $field:ident, $kind:expr, $help:expr; $write:path, $read:ident) => {
        $crate::field_option!($key, $field, $kind, $help, |held| $write(*held), |value| {
            value.$read()
        })
    };
    ($key:literal, $field:ident, $kind:expr, $help:expr, |$held:ident| $get:expr, |$value:ident| $set:expr) => {
        $crate::core::Declared {
            key: $key,
            kind: $kind,
            help: $help,
            get: |options| {
                let $held = &options.$field;
                $get
            },
            set: |options, $value| {
                options.$field = $set;
                Ok(())
            },
        }
    };
}

/// Declares an `on`/`off` option kept in the `bool` field `$field`:
/// `switch_option!("repeat-mover", repeat_mover, "help")`.
#[macro_export]
macro_rules! switch_option {
    ($key:literal, $field:ident, $help:expr) => {
        $crate::field_option!($key, $field, $crate::core::Kind::Switch, $help; $crate::core::Value::Switch, switch)
    };
}

/// Declares a limit of plies or rounds ([`LIMIT`](crate::core::LIMIT): a
/// positive number or `none`) kept in the `Option<NonZeroU32>` field
/// `$field`.
#[macro_export]
macro_rules! limit_option {
    ($key:literal, $field:ident, $help:expr) => {
        $crate::field_option!($key, $field, $crate::core::LIMIT, $help; $crate::core::Value::from_limit, limit)
    };
}

/// Declares a choice among the values of `$values` (an array of the
/// field's type), named by `$words` in the same order:
/// `choice_option!("turn-order", turn_order, TURN_ORDERS, &["free", "fixed"], "help")`.
#[macro_export]
macro_rules! choice_option {
    ($key:literal, $field:ident, $values:expr, $words:expr, $help:expr) => {
        $crate::field_option!(
            $key,
            $field,
            $crate::core::Kind::Choice($words),
            $help,
            |chosen| $crate::core::Value::chosen(&$values, chosen),
            |value| value.choose(&$values)
        )
    };
}

/// Declares a whole number from `$min` to `$max` (both `u64`) kept in the
/// field `$field`: an unsigned integer of any width that holds the range,
/// or an `Option` of one, which unset is not written
/// ([`WholeField`](crate::core::WholeField)):
/// `whole_option!("players", players, 2, 4, "help")`.
#[macro_export]
macro_rules! whole_option {
    ($key:literal, $field:ident, $min:expr, $max:expr, $help:expr) => {
        $crate::field_option!($key, $field, $crate::core::Kind::Whole { min: $min, max: $max }, $help; $crate::core::Value::from_whole, whole_as)
    };
}

/// Declares a number from `$min` to `$max` kept in the `f64` field
/// `$field` (`$max` may be `f64::INFINITY`: no upper bound):
/// `number_option!("weight", weight, 0.0, 1.0, "help")`.
#[macro_export]
macro_rules! number_option {
    ($key:literal, $field:ident, $min:expr, $max:expr, $help:expr) => {
        $crate::field_option!($key, $field, $crate::core::Kind::Number { min: $min, max: $max }, $help; $crate::core::Value::Number, number)
    };
}

/// Declares a thread count ([`Kind::Threads`](crate::core::Kind::Threads))
/// kept in the `usize` field `$field`.
#[macro_export]
macro_rules! threads_option {
    ($key:literal, $field:ident, $help:expr) => {
        $crate::field_option!($key, $field, $crate::core::Kind::Threads, $help; $crate::core::Value::from_whole, whole_as)
    };
}

/// Implements `FromStr` (by [`read_options`](crate::core::read_options):
/// options left out keep their defaults) and `Display` (by
/// [`write_options`](crate::core::write_options): every option written
/// out, reading back into the same value) for a
/// [`Configurable`](crate::core::Configurable) type.
#[macro_export]
macro_rules! options_text {
    ($type:ty) => {
        impl ::std::str::FromStr for $type {
            type Err = $crate::core::ParseError;

            /// Reads `key=value` options; options left out keep their
            /// defaults.
            fn from_str(text: &str) -> Result<Self, $crate::core::ParseError> {
                $crate::core::read_options(text)
            }
        }

        impl ::std::fmt::Display for $type {
            /// Every option as `key=value` text that reads back into the
            /// same value.
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(&$crate::core::write_options(self))
            }
        }
    };
}

/// Implements [`Configurable`](crate::core::Configurable) for `$type`
/// from what its options are called in messages and its table of
/// options (a `&[Declared<_>]`, in the order they are written); the block
/// after them, if any, holds the type's own
/// [`check_together`](crate::core::Configurable::check_together) and
/// [`complete`](crate::core::Configurable::complete):
/// `configurable!(Dice, "dice options", DICE_OPTIONS, { fn check_together(&self) -> Result<(), String> { ... } })`.
#[macro_export]
macro_rules! configurable {
    ($type:ty, $what:expr, $options:expr $(, { $($methods:tt)* })?) => {
        impl $crate::core::Configurable for $type {
            const WHAT: &'static str = $what;
            const OPTIONS: &'static [$crate::core::Declared<Self>] = $options;
            $($($methods)*)?
        }
    };
}

/// Declares a game's rules type from its table of options: the
/// [`Configurable`](crate::core::Configurable) impl of
/// [`configurable!`](crate::configurable) (same arguments), its text
/// ([`options_text!`](crate::options_text)) and
/// [`RulesOptions`](crate::core::RulesOptions):
/// `rules_options!(DiceRules, "dice rules", DICE_OPTIONS)`.
#[macro_export]
macro_rules! rules_options {
    ($type:ty, $($declaration:tt)*) => {
        $crate::configurable!($type, $($declaration)*);
        $crate::options_text!($type);
        impl $crate::core::RulesOptions for $type {}
    };
}

/// Declares a searcher's configuration from its table of options: the
/// [`Configurable`](crate::core::Configurable) impl of
/// [`configurable!`](crate::configurable) (same arguments), its text
/// ([`options_text!`](crate::options_text)) and `validate` (the check of a
/// configuration however it was made,
/// [`validate_options`](crate::core::validate_options), which a searcher's
/// constructor calls so that the library refuses what the command line
/// refuses).
macro_rules! declared_configuration {
    ($type:ty, $($declaration:tt)*) => {
        $crate::configurable!($type, $($declaration)*);

        impl $type {
            /// Checks the configuration however it was made, as its text
            /// is checked when read: every option in its range, and the
            /// options fitting together.
            ///
            /// # Errors
            /// What is wrong, naming the option.
            pub fn validate(&self) -> Result<(), String> {
                $crate::core::validate_options(self)
            }
        }

        $crate::options_text!($type);
    };
}
pub(crate) use declared_configuration;
