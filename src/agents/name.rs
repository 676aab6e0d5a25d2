//! An agent's name in tables and reports: the option `name=NAME` of any
//! spec (`mcts:name=fast,iters=100`, `htp:name=capture,cmd=PROGRAM`),
//! which names the agent and takes no part in building it.

use crate::core::ParseError;
use std::borrow::Cow;

/// The option that names an agent.
pub const NAME_OPTION: &str = "name";

/// The option of an outside engine's spec that holds its command line: the
/// last option, running to the end of the spec, so that nothing after it
/// is read as an option (not even `name=`).
pub const COMMAND_OPTION: &str = "cmd";

/// The longest name, in characters: names head the columns and label the
/// charts of reports.
pub const MAX_AGENT_NAME_CHARS: usize = 64;

/// Characters a name may not hold, beside control characters: a name is
/// written in Markdown tables, between backticks.
const REFUSED_IN_NAMES: [char; 2] = ['`', '|'];

/// A spec read for its name: the name it gives, if any, and the spec
/// without that option, which is what builds the agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedSpec<'a> {
    /// The name given by `name=`, trimmed.
    pub name: Option<String>,
    /// The spec without its `name=` option (the spec itself when it has
    /// none).
    pub spec: Cow<'a, str>,
}

/// Reads the `name=NAME` option of `spec` (`KIND:OPTIONS`, options
/// separated by commas, read up to the end or up to an outside engine's
/// `cmd=`, whose command line is never searched).
///
/// # Errors
/// A name given twice, empty, longer than [`MAX_AGENT_NAME_CHARS`], or
/// holding a control character, a backtick or a `|`.
pub fn named_spec(spec: &str) -> Result<NamedSpec<'_>, ParseError> {
    let unnamed = NamedSpec {
        name: None,
        spec: Cow::Borrowed(spec),
    };
    let Some((kind, options)) = spec.split_once(':') else {
        return Ok(unnamed);
    };
    let mut name = None;
    let mut kept: Vec<&str> = Vec::new();
    let mut rest = options;
    loop {
        let (option, after) = match rest.split_once(',') {
            Some((option, after)) => (option, Some(after)),
            None => (rest, None),
        };
        match option
            .split_once('=')
            .map(|(key, value)| (key.trim(), value))
        {
            Some((COMMAND_OPTION, _)) => {
                kept.push(rest);
                break;
            }
            Some((NAME_OPTION, value)) => {
                if name.is_some() {
                    return Err(refused(spec, "`name` is given twice".into()));
                }
                name = Some(checked_name(spec, value.trim())?);
            }
            _ => kept.push(option),
        }
        match after {
            Some(after) => rest = after,
            None => break,
        }
    }
    if name.is_none() {
        return Ok(unnamed);
    }
    let options = kept.join(",");
    let spec = match options.trim().is_empty() {
        true => kind.to_string(),
        false => format!("{kind}:{options}"),
    };
    Ok(NamedSpec {
        name,
        spec: Cow::Owned(spec),
    })
}

/// The name of `spec` in tables: its `name=`, or the spec itself when it
/// has none (or a name that [`named_spec`] refuses, which the run's checks
/// report before any table is made).
pub fn agent_label(spec: &str) -> String {
    match named_spec(spec) {
        Ok(NamedSpec {
            name: Some(name), ..
        }) => name,
        _ => spec.to_string(),
    }
}

fn refused(spec: &str, problem: String) -> ParseError {
    ParseError::new("agent spec", spec, problem)
}

/// `name` if it can name an agent in tables and reports.
fn checked_name(spec: &str, name: &str) -> Result<String, ParseError> {
    let length = name.chars().count();
    if length == 0 {
        return Err(refused(spec, "`name` is empty".into()));
    }
    if length > MAX_AGENT_NAME_CHARS {
        return Err(refused(
            spec,
            format!("`name` has {length} characters, more than {MAX_AGENT_NAME_CHARS}"),
        ));
    }
    if let Some(bad) = name
        .chars()
        .find(|&c| c.is_control() || REFUSED_IN_NAMES.contains(&c))
    {
        return Err(refused(
            spec,
            format!(
                "`name` may not hold `{}` (control characters, backticks and `|` would break the reports' tables)",
                bad.escape_default()
            ),
        ));
    }
    Ok(name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(spec: &str) -> (Option<String>, String) {
        let named = named_spec(spec).unwrap();
        (named.name, named.spec.into_owned())
    }

    #[test]
    fn a_name_is_taken_out_of_the_spec_that_builds_the_agent() {
        assert_eq!(
            parts("mcts:name=fast,iters=100"),
            (Some("fast".into()), "mcts:iters=100".into())
        );
        assert_eq!(
            parts("mcts:iters=100, name = big search "),
            (Some("big search".into()), "mcts:iters=100".into())
        );
        assert_eq!(parts("greedy:name=g"), (Some("g".into()), "greedy".into()));
        assert_eq!(
            parts("alphabeta:depth=3"),
            (None, "alphabeta:depth=3".into())
        );
        assert_eq!(parts("random"), (None, "random".into()));
        // An engine's command line is its own: a `name=` in it is the
        // command's.
        assert_eq!(
            parts("htp:name=capture,reply-ms=500,cmd=engine --x,name=y"),
            (
                Some("capture".into()),
                "htp:reply-ms=500,cmd=engine --x,name=y".into()
            )
        );
        assert_eq!(
            parts("htp:cmd=engine name=y"),
            (None, "htp:cmd=engine name=y".into())
        );
        assert_eq!(agent_label("mcts:name=fast,iters=100"), "fast");
        assert_eq!(agent_label("mcts:iters=100"), "mcts:iters=100");
    }

    #[test]
    fn bad_names_are_refused_with_the_spec_escaped() {
        let long = format!("mcts:name={}", "x".repeat(MAX_AGENT_NAME_CHARS + 1));
        for (spec, problem) in [
            ("mcts:name=,iters=1", "empty"),
            ("mcts:name=a,name=b", "twice"),
            (long.as_str(), "more than 64"),
            ("mcts:name=a\u{1b}[2J", "\\u{1b}"),
            ("mcts:name=a|b", "`|`"),
            ("mcts:name=a`b", "backticks"),
        ] {
            let error = named_spec(spec).unwrap_err().to_string();
            assert!(error.contains(problem), "{spec}: {error}");
            assert!(!error.contains('\u{1b}'), "{error}");
        }
    }
}
