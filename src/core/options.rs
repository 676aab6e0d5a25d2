//! `key=value` option lists, the text form of agent specs and rules
//! options, and the trait every game's rules options implement.

use super::{Configurable, ParseError, validate_options};
use std::fmt::{Debug, Display};
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
/// [`NoRules`]. [`rules_options!`](crate::rules_options) declares all of
/// this from the table of options.
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

    /// These rules with the options of `text` read onto them: options the
    /// text leaves out keep their values here. A named variant of a game
    /// ([`crate::registry::Variant`]) reads the rules given with its name
    /// onto its own this way.
    ///
    /// # Errors
    /// As reading the text.
    fn read_onto(&self, text: &str) -> Result<Self, ParseError> {
        super::read_options_onto(self.clone(), text, text)
    }
}

/// The rules of a game without options: reading accepts only empty text,
/// and the text form is empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NoRules;

crate::rules_options!(NoRules, "rules", &[]);

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

/// Whether `count` (of plies, say) has reached `limit`; never without a limit.
#[inline]
pub fn limit_reached(limit: Option<NonZeroU32>, count: u32) -> bool {
    limit.is_some_and(|limit| count >= limit.get())
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn a_limit_is_reached_at_its_count_and_no_limit_never() {
        let limit = NonZeroU32::new(40);
        assert!(!limit_reached(limit, 39) && limit_reached(limit, 40));
        assert!(!limit_reached(None, u32::MAX));
    }
}
