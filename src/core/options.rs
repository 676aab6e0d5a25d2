//! `key=value` option lists, the text form of agent specs and rules
//! options, and the trait every game's rules options implement.

use super::ParseError;
use std::fmt::{Debug, Display};
use std::num::NonZeroU32;
use std::str::FromStr;

/// A game's rules options: house rules, limits and sizes.
///
/// `Default` is the standard game. The text form is a `key=value` list:
/// `FromStr` reads it (options left out keep their defaults) and `Display`
/// writes every option, so that the text reads back into the same rules.
/// A rules value is always valid: reading text checks it, and a type whose
/// options can contradict each other keeps its fields private and checks
/// every change, so a game is never made from rules that fail
/// [`validate`](RulesOptions::validate).
pub trait RulesOptions:
    Clone + Debug + Default + Display + FromStr<Err = ParseError> + PartialEq + Send + Sync + 'static
{
    /// Checks that the options fit together and fit the state's types.
    ///
    /// # Errors
    /// What is wrong, in a sentence naming the options.
    fn validate(&self) -> Result<(), String>;
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

/// Reads a limit (of plies, say): a positive number, or `none` for no limit.
/// `0` is refused: it would either mean "no limit" or "end at once", and
/// the reader cannot tell which was meant; the type cannot hold it either.
pub fn parse_limit(
    what: &'static str,
    text: &str,
    key: &str,
    value: &str,
) -> Result<Option<NonZeroU32>, ParseError> {
    match value {
        "none" => Ok(None),
        _ => match NonZeroU32::new(parse_value::<u32>(what, text, key, value)?) {
            None => Err(ParseError::new(
                what,
                text,
                format!("`{key}` takes a positive number or `none`, not 0"),
            )),
            limit => Ok(limit),
        },
    }
}

/// A limit as [`parse_limit`] reads it: the number, or `none`.
pub fn limit_text(limit: Option<NonZeroU32>) -> String {
    limit.map_or_else(|| "none".to_string(), |limit| limit.to_string())
}

/// Whether `count` (of plies, say) has reached `limit`; never without a limit.
#[inline]
pub fn limit_reached(limit: Option<NonZeroU32>, count: u32) -> bool {
    limit.is_some_and(|limit| count >= limit.get())
}

/// `on` or `off`, as [`parse_switch`] reads it.
pub fn switch_text(on: bool) -> &'static str {
    if on { "on" } else { "off" }
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
    fn limits_are_positive_or_none() {
        let limit = parse_limit("rules", "ply-limit=40", "ply-limit", "40").unwrap();
        assert_eq!(limit, NonZeroU32::new(40));
        assert_eq!(limit_text(limit), "40");
        let none = parse_limit("rules", "ply-limit=none", "ply-limit", "none").unwrap();
        assert_eq!((none, limit_text(none).as_str()), (None, "none"));
        let zero = parse_limit("rules", "ply-limit=0", "ply-limit", "0").unwrap_err();
        assert!(zero.to_string().contains("not 0"), "{zero}");
        assert!(!limit_reached(limit, 39) && limit_reached(limit, 40));
        assert!(!limit_reached(none, u32::MAX));
    }
}
