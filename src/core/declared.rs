//! Options declared once, as data: each searcher's configuration and each
//! game's rules list their options in one table of [`Declared`] entries
//! (key, kind of value and range, one line of help, how to read and write
//! the field), and reading `key=value` text, refusing unknown keys with the
//! valid ones, checking a value built by hand, printing text that reads
//! back to the same value and the documentation's tables all come from
//! that table, as OpenSpiel's parameter specifications do.
//!
//! ```
//! use norn::core::{Configurable, Declared, Kind, Value, read_options, write_options};
//!
//! #[derive(Clone, Debug, Default, PartialEq)]
//! struct Dice {
//!     sides: u64,
//!     loaded: bool,
//! }
//!
//! impl Configurable for Dice {
//!     const WHAT: &'static str = "dice options";
//!     const OPTIONS: &'static [Declared<Self>] = &[
//!         Declared {
//!             key: "sides",
//!             kind: Kind::Whole { min: 2, max: 100 },
//!             help: "faces of the die",
//!             get: |dice| Value::Whole(dice.sides),
//!             set: |dice, value| {
//!                 dice.sides = value.whole();
//!                 Ok(())
//!             },
//!         },
//!         Declared {
//!             key: "loaded",
//!             kind: Kind::Switch,
//!             help: "whether one face comes up more often",
//!             get: |dice| Value::Switch(dice.loaded),
//!             set: |dice, value| {
//!                 dice.loaded = value.switch();
//!                 Ok(())
//!             },
//!         },
//!     ];
//! }
//!
//! let dice: Dice = read_options("sides=6").unwrap();
//! assert_eq!(write_options(&dice), "sides=6,loaded=off");
//! let refused = read_options::<Dice>("sides=1").unwrap_err().to_string();
//! assert!(refused.contains("`sides` must be from 2 to 100, not 1"), "{refused}");
//! ```

use super::{ParseError, parse_key_values, thread_limit, unknown_key};
use std::fmt;
use std::num::NonZeroU32;
use std::time::Duration;

mod macros;
pub(crate) use macros::declared_configuration;

/// A limit of plies or rounds: a positive number, or `none` for no limit
/// (`0` is refused: it could mean either "no limit" or "end at once").
pub const LIMIT: Kind = Kind::Optional(&Kind::Positive, "none");

/// A time limit in whole milliseconds (`ms=500`).
pub const MILLISECONDS: Kind = Kind::Whole {
    min: 1,
    max: u64::MAX,
};

/// The kind of value an option takes, with its range: what reading checks,
/// what a configuration built by hand is checked against, and what the
/// documentation says.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A whole number from `min` to `max`.
    Whole {
        /// The least value.
        min: u64,
        /// The greatest value.
        max: u64,
    },
    /// A positive number that fits a `u32`: a limit of plies or rounds.
    Positive,
    /// A thread count: from 1 to what the machine can run
    /// ([`thread_limit`]).
    Threads,
    /// A finite number from `min` to `max` (`max` may be infinite: no
    /// upper bound); NaN is refused.
    Number {
        /// The least value.
        min: f64,
        /// The greatest value, or infinity.
        max: f64,
    },
    /// `on` or `off` (also `true`/`false`, `yes`/`no`, `1`/`0`).
    Switch,
    /// One of these words.
    Choice(&'static [&'static str]),
    /// Any of the kinds above, or this word for no value (`none`, `off`).
    Optional(&'static Kind, &'static str),
    /// Text the option reads itself (its `set` says what is wrong), with a
    /// description of what it takes for the documentation.
    Text(&'static str),
}

/// One option's value, as [`Declared::get`] gives it and
/// [`Declared::set`] takes it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A whole number, of [`Kind::Whole`], [`Kind::Positive`] or
    /// [`Kind::Threads`].
    Whole(u64),
    /// A number, of [`Kind::Number`].
    Number(f64),
    /// On or off, of [`Kind::Switch`].
    Switch(bool),
    /// The index of the word in [`Kind::Choice`].
    Choice(usize),
    /// The text of a [`Kind::Text`] option, as given.
    Text(String),
    /// The word of [`Kind::Optional`]: no value.
    Absent,
    /// The option is not written: it does not apply to this configuration
    /// (the exponent of a widening that is off), or it is unset and its
    /// value follows from the other options (a hand size the deck decides).
    Inapplicable,
}

impl Value {
    /// The whole number (or thread count) of a value read for
    /// [`Kind::Whole`] or [`Kind::Threads`].
    ///
    /// # Panics
    /// For a value of another kind: a declaration whose `set` does not
    /// match its `kind`.
    pub fn whole(&self) -> u64 {
        match self {
            Value::Whole(number) => *number,
            other => panic!("expected a whole number, got {other:?}"),
        }
    }

    /// The field a value read for [`Kind::Whole`] or [`Kind::Threads`]
    /// sets ([`whole_option!`](crate::whole_option)): its number, or that
    /// number in an `Option`.
    ///
    /// # Panics
    /// As [`Value::whole`], and for a number the field cannot hold: a
    /// declaration whose range does not fit its field.
    pub fn whole_as<F: WholeField>(&self) -> F {
        F::from_whole(self.whole())
    }

    /// The value of a field that keeps a whole number: its number, or
    /// [`Value::Inapplicable`] for an `Option` left unset.
    pub fn from_whole<F: WholeField>(field: F) -> Value {
        field.to_value()
    }

    /// The number of a value read for [`Kind::Number`].
    ///
    /// # Panics
    /// As [`Value::whole`].
    pub fn number(&self) -> f64 {
        match self {
            Value::Number(number) => *number,
            other => panic!("expected a number, got {other:?}"),
        }
    }

    /// The switch of a value read for [`Kind::Switch`].
    ///
    /// # Panics
    /// As [`Value::whole`].
    pub fn switch(&self) -> bool {
        match self {
            Value::Switch(on) => *on,
            other => panic!("expected on or off, got {other:?}"),
        }
    }

    /// The word's index of a value read for [`Kind::Choice`].
    ///
    /// # Panics
    /// As [`Value::whole`].
    pub fn choice(&self) -> usize {
        match self {
            Value::Choice(index) => *index,
            other => panic!("expected a choice, got {other:?}"),
        }
    }

    /// The text of a value read for [`Kind::Text`].
    ///
    /// # Panics
    /// As [`Value::whole`].
    pub fn text(&self) -> &str {
        match self {
            Value::Text(text) => text,
            other => panic!("expected text, got {other:?}"),
        }
    }

    /// `None` for [`Value::Absent`], else `Some` of what `inner` takes from
    /// the value: the reader of an optional field.
    pub fn optional<T>(&self, inner: impl FnOnce(&Value) -> T) -> Option<T> {
        match self {
            Value::Absent => None,
            value => Some(inner(value)),
        }
    }

    /// The value of an optional field: [`Value::Absent`] for `None`.
    pub fn from_option<T>(option: Option<T>, inner: impl FnOnce(T) -> Value) -> Value {
        option.map_or(Value::Absent, inner)
    }

    /// The limit of a value read for [`LIMIT`].
    ///
    /// # Panics
    /// As [`Value::whole`], and for a number that is not [`Kind::Positive`].
    pub fn limit(&self) -> Option<NonZeroU32> {
        self.optional(|value| {
            u32::try_from(value.whole())
                .ok()
                .and_then(NonZeroU32::new)
                .expect("limits are read within LIMIT's range")
        })
    }

    /// The value of a limit field, of kind [`LIMIT`].
    pub fn from_limit(limit: Option<NonZeroU32>) -> Value {
        Value::from_option(limit, |limit| Value::Whole(limit.get().into()))
    }

    /// The value of an optional time limit of kind [`MILLISECONDS`]: not
    /// written without one (another limit applies).
    pub fn from_milliseconds(time: Option<Duration>) -> Value {
        time.map_or(Value::Inapplicable, |time| {
            Value::Whole(u64::try_from(time.as_millis()).unwrap_or(u64::MAX))
        })
    }

    /// The value of a field that holds one of `choices`, listed in the
    /// order of its kind's words.
    ///
    /// # Panics
    /// If `current` is not among `choices`.
    pub fn chosen<T: PartialEq>(choices: &[T], current: &T) -> Value {
        Value::Choice(
            choices
                .iter()
                .position(|choice| choice == current)
                .expect("every choice is listed"),
        )
    }

    /// The one of `choices` a value read for a [`Kind::Choice`] of the
    /// same order names.
    ///
    /// # Panics
    /// As [`Value::choice`], and for an index past `choices`.
    pub fn choose<T: Copy>(&self, choices: &[T]) -> T {
        choices[self.choice()]
    }
}

/// A field that keeps a whole number ([`whole_option!`](crate::whole_option)):
/// an unsigned integer of any width, or an `Option` of one that may be
/// left unset. Unset, the option is not written: what it would say
/// follows from the other options (a search limited by time alone has no
/// iteration count, a hand size follows from the deck); giving it sets it.
pub trait WholeField: Copy {
    /// The field's value for [`Declared::get`].
    fn to_value(self) -> Value;

    /// The field holding `number`, read within the option's range.
    ///
    /// # Panics
    /// For a number the field cannot hold: a declaration whose range does
    /// not fit its field.
    fn from_whole(number: u64) -> Self;
}

/// The unsigned integers as [`WholeField`]s.
macro_rules! whole_fields {
    ($($integer:ty),*) => {$(
        impl WholeField for $integer {
            fn to_value(self) -> Value {
                Value::Whole(u64::try_from(self).unwrap_or_else(|_| panic!("{self} is above u64::MAX")))
            }

            fn from_whole(number: u64) -> Self {
                Self::try_from(number)
                    .unwrap_or_else(|_| panic!("{number} is outside the range of its field"))
            }
        }
    )*};
}
whole_fields!(u8, u16, u32, u64, usize);

impl<F: WholeField> WholeField for Option<F> {
    fn to_value(self) -> Value {
        self.map_or(Value::Inapplicable, F::to_value)
    }

    fn from_whole(number: u64) -> Self {
        Some(F::from_whole(number))
    }
}

/// One declared option of configuration `C`.
pub struct Declared<C> {
    /// The key in `key=value` text.
    pub key: &'static str,
    /// The values it takes.
    pub kind: Kind,
    /// One line for the documentation and `--help`.
    pub help: &'static str,
    /// The option's value in a configuration.
    pub get: fn(&C) -> Value,
    /// Sets the option to a value of its kind, already checked against the
    /// kind's range; an error says what else is wrong with it (text that
    /// does not read, a value that contradicts the type).
    pub set: fn(&mut C, Value) -> Result<(), String>,
}

/// A configuration whose options are declared once, in [`Self::OPTIONS`].
pub trait Configurable: Default + Clone + Sized + 'static {
    /// What the text is called in messages: `"mcts options"`, `"hnefatafl rules"`.
    const WHAT: &'static str;

    /// Every option, in the order [`write_options`] writes them.
    const OPTIONS: &'static [Declared<Self>];

    /// Checks what the ranges of single options cannot: how the options fit
    /// together, and what the machine can give.
    ///
    /// # Errors
    /// What is wrong, in a sentence naming the options.
    fn check_together(&self) -> Result<(), String> {
        Ok(())
    }

    /// Completes a configuration read from text, given the keys the text
    /// set: for defaults that depend on which options were given (a depth
    /// limit only when no other limit is).
    fn complete(&mut self, _given: &[&str]) {}
}

/// Reads `key=value` options onto the defaults (options left out keep
/// them), then checks the whole ([`validate_options`]).
///
/// # Errors
/// An unknown key (the error lists the valid ones), a value that is not of
/// the option's kind or out of its range, or options that do not fit
/// together; each names the option.
pub fn read_options<C: Configurable>(text: &str) -> Result<C, ParseError> {
    read_options_onto(C::default(), text, text)
}

/// As [`read_options`], but onto `base` instead of the defaults, quoting
/// `quoted` (an agent spec, say, of which `text` is the options) in errors.
///
/// # Errors
/// As [`read_options`].
pub fn read_options_onto<C: Configurable>(
    mut base: C,
    text: &str,
    quoted: &str,
) -> Result<C, ParseError> {
    let error = |problem: String| ParseError::new(C::WHAT, quoted, problem);
    let pairs = parse_key_values(text, C::WHAT).map_err(|parse| error(parse.problem().into()))?;
    for &(key, value) in &pairs {
        let Some(option) = C::OPTIONS.iter().find(|option| option.key == key) else {
            return Err(unknown_key(C::WHAT, quoted, key, &keys::<C>()));
        };
        let read = read_value(key, &option.kind, value).map_err(error)?;
        (option.set)(&mut base, read).map_err(error)?;
    }
    let given: Vec<&str> = pairs.iter().map(|&(key, _)| key).collect();
    base.complete(&given);
    base.check_together().map_err(error)?;
    Ok(base)
}

/// The keys of `C`'s options, in their order.
pub fn keys<C: Configurable>() -> Vec<&'static str> {
    C::OPTIONS.iter().map(|option| option.key).collect()
}

/// Checks a configuration however it was made: every option's value is one
/// its text would be read as, and the options fit together. Searchers call
/// this when they are built, so that the library refuses what the command
/// line refuses.
///
/// # Errors
/// The first option out of its range, or what
/// [`Configurable::check_together`] finds.
pub fn validate_options<C: Configurable>(config: &C) -> Result<(), String> {
    for option in C::OPTIONS {
        let value = (option.get)(config);
        check_value(option.key, &option.kind, &value)?;
        if let Value::Text(_) = value {
            (option.set)(&mut config.clone(), value)?;
        }
    }
    config.check_together()
}

/// The options as `key=value` text with every applicable option written
/// out, which [`read_options`] reads back into the same configuration.
pub fn write_options<C: Configurable>(config: &C) -> String {
    let mut text = String::new();
    for option in C::OPTIONS {
        let value = (option.get)(config);
        if value == Value::Inapplicable {
            continue;
        }
        if !text.is_empty() {
            text.push(',');
        }
        text.push_str(option.key);
        text.push('=');
        text.push_str(&value_text(&option.kind, &value));
    }
    text
}

/// A markdown table of `C`'s options: key, values, default (from
/// `C::default()`) and help, one row each; the documentation embeds it and
/// a test keeps the two equal.
pub fn options_table<C: Configurable>() -> String {
    let defaults = C::default();
    let mut table =
        String::from("| option | values | default | what it does |\n| --- | --- | --- | --- |\n");
    for option in C::OPTIONS {
        let default = match (option.get)(&defaults) {
            Value::Inapplicable => "-".to_string(),
            value => format!("`{}`", value_text(&option.kind, &value)),
        };
        table.push_str(&format!(
            "| `{}` | {} | {default} | {} |\n",
            option.key, option.kind, option.help
        ));
    }
    table
}

/// Reads `value` as a value of `kind` for option `key`.
fn read_value(key: &str, kind: &Kind, value: &str) -> Result<Value, String> {
    let not_valid = || format!("`{value}` is not a valid value for `{key}`");
    let read = match kind {
        Kind::Optional(_, word) if value == *word => return Ok(Value::Absent),
        Kind::Optional(inner, word) => {
            return read_value(key, inner, value).map_err(|problem| {
                if problem == not_valid() {
                    format!("{problem}: it takes {inner} or `{word}`")
                } else {
                    problem
                }
            });
        }
        Kind::Whole { .. } | Kind::Positive | Kind::Threads => {
            Value::Whole(value.parse().map_err(|_| not_valid())?)
        }
        Kind::Number { .. } => Value::Number(value.parse().map_err(|_| not_valid())?),
        Kind::Switch => Value::Switch(match value {
            "on" | "true" | "yes" | "1" => true,
            "off" | "false" | "no" | "0" => false,
            _ => return Err(format!("`{key}` takes on or off, not `{value}`")),
        }),
        Kind::Choice(words) => Value::Choice(
            words
                .iter()
                .position(|word| *word == value)
                .ok_or_else(|| format!("`{key}` takes {}, not `{value}`", listed(words)))?,
        ),
        Kind::Text(_) => Value::Text(value.to_string()),
    };
    check_value(key, kind, &read).map(|()| read)
}

/// Checks that `value` is in the range of `kind`.
fn check_value(key: &str, kind: &Kind, value: &Value) -> Result<(), String> {
    match (kind, value) {
        (_, Value::Inapplicable) | (Kind::Optional(..), Value::Absent) => Ok(()),
        (Kind::Optional(inner, _), value) => check_value(key, inner, value),
        (Kind::Whole { min, max }, Value::Whole(number)) => {
            if (min..=max).contains(&number) {
                Ok(())
            } else {
                Err(format!("`{key}` must be from {min} to {max}, not {number}"))
            }
        }
        (Kind::Positive, Value::Whole(number)) => {
            if (1..=u64::from(u32::MAX)).contains(number) {
                Ok(())
            } else {
                Err(format!(
                    "`{key}` must be a positive number (at most {}), not {number}",
                    u32::MAX
                ))
            }
        }
        (Kind::Threads, Value::Whole(number)) => {
            let limit = thread_limit() as u64;
            if (1..=limit).contains(number) {
                Ok(())
            } else {
                Err(format!("`{key}` must be from 1 to {limit}, not {number}"))
            }
        }
        (Kind::Number { min, max }, Value::Number(number)) => {
            if number.is_finite() && (min..=max).contains(&number) {
                Ok(())
            } else if max.is_infinite() {
                Err(format!(
                    "`{key}` must be a number of at least {min}, not `{number}`"
                ))
            } else {
                Err(format!(
                    "`{key}` must be from {min} to {max}, not `{number}`"
                ))
            }
        }
        (Kind::Switch, Value::Switch(_)) | (Kind::Text(_), Value::Text(_)) => Ok(()),
        (Kind::Choice(words), Value::Choice(index)) if *index < words.len() => Ok(()),
        (kind, value) => Err(format!("`{key}` takes {kind}, not {value:?}")),
    }
}

/// A value as its option's text.
fn value_text(kind: &Kind, value: &Value) -> String {
    match (kind, value) {
        (Kind::Optional(_, word), Value::Absent) => word.to_string(),
        (Kind::Optional(inner, _), value) => value_text(inner, value),
        (_, Value::Whole(number)) => number.to_string(),
        (_, Value::Number(number)) => number.to_string(),
        (_, Value::Switch(on)) => if *on { "on" } else { "off" }.to_string(),
        (Kind::Choice(words), Value::Choice(index)) => words[*index].to_string(),
        (_, Value::Text(text)) => text.clone(),
        (_, other) => format!("{other:?}"),
    }
}

/// `a`, `a or b`, `a, b or c`.
fn listed(words: &[&str]) -> String {
    match words.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => "no value".to_string(),
    }
}

/// What the documentation says an option of this kind takes.
impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::Whole { min, max } => write!(f, "a whole number from {min} to {max}"),
            Kind::Positive => f.write_str("a positive number"),
            Kind::Threads => f.write_str("a whole number from 1 to 16 per core (at least 64)"),
            Kind::Number { min, max } if max.is_infinite() => {
                write!(f, "a number of at least {min}")
            }
            Kind::Number { min, max } => write!(f, "a number from {min} to {max}"),
            Kind::Switch => f.write_str("on or off"),
            Kind::Choice(words) => f.write_str(&listed(words)),
            Kind::Optional(inner, word) => write!(f, "{inner}, or `{word}`"),
            Kind::Text(description) => f.write_str(description),
        }
    }
}

/// Asserts that each of `texts`, read as `C`'s options, is written as text
/// that reads back to the same configuration: the check every declared
/// configuration's tests make.
#[cfg(test)]
pub(crate) fn assert_reads_back<C: Configurable + PartialEq + fmt::Debug>(texts: &[&str]) {
    for text in texts {
        let config: C = read_options(text).unwrap_or_else(|error| panic!("{text}: {error}"));
        let written = write_options(&config);
        assert_eq!(read_options::<C>(&written), Ok(config), "{written}");
    }
}

#[cfg(test)]
mod tests;
