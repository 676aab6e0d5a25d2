//! `key=value` option lists, the text form of agent specs and rules
//! options, and the trait every game's rules options implement.

use super::{Configurable, Declared, ParseError, read_options, validate_options, write_options};
use std::fmt::{self, Debug, Display};
use std::num::NonZeroU32;
use std::str::FromStr;

/// A game's rules options: house rules, limits and sizes, declared once
/// as [`Configurable`] options.
///
/// `Default` is the standard game. The text form is a `key=value` list:
/// `FromStr` reads it (options left out keep their defaults; a type
/// implements it with [`read_options`](super::read_options)) and `Display` writes every option
/// ([`write_options`](super::write_options)), so that the text reads back into the same rules.
/// A rules value is always valid: reading text checks it, and a type whose
/// options can contradict each other keeps its fields private and checks
/// every change, so a game is never made from rules that fail
/// [`validate`](RulesOptions::validate). A game without options uses
/// [`NoRules`].
pub trait RulesOptions:
    Configurable + Debug + Display + FromStr<Err = ParseError> + PartialEq + Send + Sync + 'static
{
    /// Checks every option against its range and the options against each
    /// other ([`validate_options`]).
    ///
    /// # Errors
    /// What is wrong, in a sentence naming the options.
    fn validate(&self) -> Result<(), String> {
        validate_options(self)
    }
}

/// The rules of a game without options: reading accepts only empty text,
/// and the text form is empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NoRules;

impl RulesOptions for NoRules {}

impl Configurable for NoRules {
    const WHAT: &'static str = "rules";
    const OPTIONS: &'static [Declared<Self>] = &[];
}

impl FromStr for NoRules {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Self, ParseError> {
        read_options(text)
    }
}

impl fmt::Display for NoRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write_options(self))
    }
}

/// Splits `key=value,key=value` into pairs (surrounding spaces ignored; empty
/// text gives no pairs). `what` names the kind of text in error messages.
pub fn parse_key_values<'a>(
    text: &'a str,
    what: &'static str,
) -> Result<Vec<(&'a str, &'a str)>, ParseError> {
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for item in text
        .split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
    {
        let Some((key, value)) = item.split_once('=') else {
            return Err(ParseError::new(
                what,
                text,
                format!("`{item}` is not of the form key=value"),
            ));
        };
        let (key, value) = (key.trim(), value.trim());
        if pairs.iter().any(|&(seen, _)| seen == key) {
            return Err(ParseError::new(
                what,
                text,
                format!("`{key}` is given twice"),
            ));
        }
        pairs.push((key, value));
    }
    Ok(pairs)
}

/// Parses the value of option `key`, naming the option when it cannot.
pub fn parse_value<T: FromStr>(
    what: &'static str,
    text: &str,
    key: &str,
    value: &str,
) -> Result<T, ParseError> {
    value.parse().map_err(|_| {
        ParseError::new(
            what,
            text,
            format!("`{value}` is not a valid value for `{key}`"),
        )
    })
}

/// Whether `count` (of plies, say) has reached `limit`; never without a limit.
#[inline]
pub fn limit_reached(limit: Option<NonZeroU32>, count: u32) -> bool {
    limit.is_some_and(|limit| count >= limit.get())
}

/// Reads an exploration constant: a finite number of at least 0 (a NaN or a
/// negative constant would leave a search with no child worth choosing).
pub fn parse_exploration(
    what: &'static str,
    text: &str,
    key: &str,
    value: &str,
) -> Result<f64, ParseError> {
    let c: f64 = parse_value(what, text, key, value)?;
    if c.is_finite() && c >= 0.0 {
        Ok(c)
    } else {
        Err(ParseError::new(
            what,
            text,
            format!("`{key}` must be a number of at least 0, not `{value}`"),
        ))
    }
}

/// The error for an option name that does not exist, listing those that do.
pub fn unknown_key(what: &'static str, text: &str, key: &str, valid: &[&str]) -> ParseError {
    ParseError::new(
        what,
        text,
        format!(
            "unknown option `{key}` (valid options: {})",
            valid.join(", ")
        ),
    )
}

/// Reads `on`/`off` (also `true`/`false`, `yes`/`no`, `1`/`0`).
pub fn parse_switch(
    what: &'static str,
    text: &str,
    key: &str,
    value: &str,
) -> Result<bool, ParseError> {
    match value {
        "on" | "true" | "yes" | "1" => Ok(true),
        "off" | "false" | "no" | "0" => Ok(false),
        _ => Err(ParseError::new(
            what,
            text,
            format!("`{key}` takes on or off, not `{value}`"),
        )),
    }
}

/// The value named by one of `choices` (`(word, value)` pairs), or an
/// error listing the words.
///
/// # Errors
/// `value` is none of the words.
pub fn parse_choice<T: Copy>(
    what: &'static str,
    text: &str,
    key: &str,
    value: &str,
    choices: &[(&str, T)],
) -> Result<T, ParseError> {
    if let Some(&(_, chosen)) = choices.iter().find(|(word, _)| *word == value) {
        return Ok(chosen);
    }
    let words: Vec<&str> = choices.iter().map(|(word, _)| *word).collect();
    let listed = match words.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => "no value".to_string(),
    };
    Err(ParseError::new(
        what,
        text,
        format!("`{key}` takes {listed}, not `{value}`"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_choice_is_one_of_its_words() {
        let choices = [("one", 1), ("two", 2), ("three", 3)];
        assert_eq!(parse_choice("spec", "n=two", "n", "two", &choices), Ok(2));
        let error = parse_choice("spec", "n=four", "n", "four", &choices).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("`n` takes one, two or three, not `four`"),
            "{error}"
        );
        let error = parse_choice("spec", "n=2", "n", "2", &choices[..2]).unwrap_err();
        assert!(error.to_string().contains("`n` takes one or two, not `2`"));
    }

    #[test]
    fn pairs_are_split_and_trimmed() {
        let pairs = parse_key_values(" iters = 200, c=1.5 ", "spec").unwrap();
        assert_eq!(pairs, vec![("iters", "200"), ("c", "1.5")]);
        assert!(parse_key_values("", "spec").unwrap().is_empty());
    }

    #[test]
    fn malformed_and_repeated_options_are_errors() {
        let missing = parse_key_values("iters", "spec").unwrap_err();
        assert!(missing.to_string().contains("key=value"));
        let twice = parse_key_values("c=1,c=2", "spec").unwrap_err();
        assert!(twice.to_string().contains("twice"));
    }

    #[test]
    fn values_and_switches_name_the_option_when_wrong() {
        let error = parse_value::<u32>("spec", "iters=x", "iters", "x").unwrap_err();
        assert!(error.to_string().contains("`iters`"));
        assert!(parse_switch("rules", "r=on", "r", "on").unwrap());
        assert!(parse_switch("rules", "r=maybe", "r", "maybe").is_err());
    }

    #[test]
    fn a_limit_is_reached_at_its_count_and_no_limit_never() {
        let limit = NonZeroU32::new(40);
        assert!(!limit_reached(limit, 39) && limit_reached(limit, 40));
        assert!(!limit_reached(None, u32::MAX));
    }
}
