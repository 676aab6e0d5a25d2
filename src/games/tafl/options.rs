//! The rules options of a tafl game: the variant, or any OpenTafl rules
//! string, and the engine's own options beside it.
//!
//! The text form is a `key=value` list like every game's:
//! `variant=brandub,ply-limit=400,repetition=rules`, or with a rules
//! string of one's own `ply-limit=400,repetition=rules,otn=dim:7 ...`.
//! The rules string holds commas and spaces, so `otn` is written last and
//! runs to the end of the text.

use super::rules_string::RulesString;
use super::spec::{Compiled, intern, variant_rules};
use super::variants::VARIANTS;
use crate::core::{Configurable, Declared, Kind, ParseError, Value, parse_key_values};
use std::fmt;
use std::num::NonZeroU32;

/// What the third occurrence of a position does, beside the rules
/// string's own `tfr`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepetitionRule {
    /// As the rules string's `tfr` says.
    RulesString,
    /// The defenders lose, whoever made the move (Copenhagen's own
    /// reading, which no `tfr` value says).
    DefendersLose,
}

const REPETITION_RULES: [RepetitionRule; 2] =
    [RepetitionRule::RulesString, RepetitionRule::DefendersLose];

/// The rules of a tafl game: its rules string, compiled once for the
/// process, and the engine's options. `Default` is Fetlar, the rules
/// page's defaults on the 11x11 board.
#[derive(Clone, Copy)]
pub struct TaflRules {
    compiled: &'static Compiled,
    /// The game is drawn after this many plies; `None` plays on forever.
    pub ply_limit: Option<NonZeroU32>,
    /// What a position's third occurrence does.
    pub repetition: RepetitionRule,
}

/// The names of the variants, in the order of [`VARIANTS`].
const VARIANT_NAMES: &[&str] = &[
    "brandub",
    "magpie",
    "tablut",
    "foteviken-tablut",
    "sea-battle",
    "fetlar",
    "copenhagen",
    "copenhagen-relaxed",
    "berserk",
    "tawlbwrdd",
    "computer-fetlar",
    "sea-battle-13",
    "tablut-15",
    "alea-evangelii",
];

/// The index of Fetlar, the default, in [`VARIANTS`].
const FETLAR: usize = 5;

impl TaflRules {
    /// The rules of the built-in variant named `name`, with the engine's
    /// default options.
    pub fn variant(name: &str) -> Option<TaflRules> {
        let index = VARIANTS.iter().position(|variant| variant.name == name)?;
        Some(TaflRules {
            compiled: variant_rules(index),
            ..TaflRules::default()
        })
    }

    /// The rules of a rules string, with the engine's default options.
    ///
    /// # Errors
    /// What is wrong with the string, or a process that has read too many
    /// different ones ([`MAX_COMPILED`](super::spec::MAX_COMPILED)).
    pub fn from_rules_string(text: &str) -> Result<TaflRules, ParseError> {
        let string: RulesString = text.parse()?;
        let compiled =
            intern(string).map_err(|problem| ParseError::new("rules string", text, problem))?;
        Ok(TaflRules {
            compiled,
            ..TaflRules::default()
        })
    }

    /// These rules' rules string with the engine's options (the ply limit,
    /// the reading of repetitions) of `options`.
    pub fn with_options_of(self, options: &TaflRules) -> TaflRules {
        TaflRules {
            compiled: self.compiled,
            ..*options
        }
    }

    /// The rules string as read.
    pub fn rules_string(&self) -> &'static RulesString {
        &self.compiled.string
    }

    /// The rules string's canonical text (OpenTafl reads it).
    pub fn rules_string_text(&self) -> &'static str {
        &self.compiled.text
    }

    /// The name of the built-in variant these rules are, if any.
    pub fn variant_name(&self) -> Option<&'static str> {
        self.compiled.variant.map(|variant| variant.name)
    }

    /// The board side.
    pub fn dim(&self) -> usize {
        self.compiled.string.dim
    }

    /// The compiled rules.
    pub(crate) fn compiled(&self) -> &'static Compiled {
        self.compiled
    }
}

impl Default for TaflRules {
    fn default() -> Self {
        TaflRules {
            compiled: variant_rules(FETLAR),
            ply_limit: NonZeroU32::new(400),
            repetition: RepetitionRule::RulesString,
        }
    }
}

impl PartialEq for TaflRules {
    /// Equal rules strings are compiled once, so the same compiled rules.
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.compiled, other.compiled)
            && self.ply_limit == other.ply_limit
            && self.repetition == other.repetition
    }
}

impl Eq for TaflRules {}

impl fmt::Debug for TaflRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TaflRules({self})")
    }
}

/// Every option, in the order its text is written; `otn` last, since its
/// value runs to the end of the text.
const OPTIONS: &[Declared<TaflRules>] = &[
    Declared {
        key: "variant",
        kind: Kind::Choice(VARIANT_NAMES),
        help: "a built-in variant, by name (or a rules string of one's own: `otn`)",
        get: |rules| match rules.compiled.variant {
            Some(variant) => Value::Choice(
                VARIANT_NAMES
                    .iter()
                    .position(|&name| name == variant.name)
                    .expect("every variant is named"),
            ),
            None => Value::Inapplicable,
        },
        set: |rules, value| {
            rules.compiled = variant_rules(value.choice());
            Ok(())
        },
    },
    crate::limit_option!(
        "ply-limit",
        ply_limit,
        "the game is drawn after this many plies"
    ),
    crate::choice_option!(
        "repetition",
        repetition,
        REPETITION_RULES,
        &["rules", "defenders-lose"],
        "a position's third occurrence does what the rules string's `tfr` says, or loses for the defenders (Copenhagen)"
    ),
    Declared {
        key: "otn",
        kind: Kind::Text("an OpenTafl rules string, written last"),
        help: "the rules as an OpenTafl rules string, e.g. `dim:7 ... start:/3t3/.../`",
        get: |rules| match rules.compiled.variant {
            Some(_) => Value::Inapplicable,
            None => Value::Text(rules.compiled.text.clone()),
        },
        set: |rules, value| {
            let read = TaflRules::from_rules_string(value.text())
                .map_err(|error| error.problem().to_string())?;
            rules.compiled = read.compiled;
            Ok(())
        },
    },
];

crate::configurable!(TaflRules, "tafl rules", OPTIONS);

impl crate::core::RulesOptions for TaflRules {
    /// The options of `text` read onto these rules, which are a variant's:
    /// the text may name the same variant again but no other, and no
    /// rules string of its own.
    fn read_onto(&self, text: &str) -> Result<Self, ParseError> {
        let read = self.read(text)?;
        if self.compiled.variant.is_some() && !std::ptr::eq(read.compiled, self.compiled) {
            return Err(ParseError::new(
                TaflRules::WHAT,
                text,
                format!(
                    "these are the rules of {}; another variant or rules string is played as `tafl` (`--rules variant=NAME` or `--otn`)",
                    self.variant_name().unwrap_or_default()
                ),
            ));
        }
        Ok(read)
    }
}

impl TaflRules {
    /// The options of `text` (`otn=...` last, if given) read onto these
    /// rules.
    fn read(&self, text: &str) -> Result<TaflRules, ParseError> {
        let (options, otn) = split_rules_string(text);
        let given = parse_key_values(options, TaflRules::WHAT)
            .map_err(|error| ParseError::new(TaflRules::WHAT, text, error.problem()))?;
        if let Some((key, _)) = given.iter().find(|(key, _)| *key == "otn") {
            return Err(ParseError::new(
                TaflRules::WHAT,
                text,
                format!("`{key}` is given twice"),
            ));
        }
        let mut rules = crate::core::read_options_onto(*self, options, text)?;
        if let Some(otn) = otn {
            if given.iter().any(|(key, _)| *key == "variant") {
                return Err(ParseError::new(
                    TaflRules::WHAT,
                    text,
                    "give a variant or a rules string (`otn`), not both",
                ));
            }
            let read = TaflRules::from_rules_string(otn)
                .map_err(|error| ParseError::new(TaflRules::WHAT, text, error.problem()))?;
            rules.compiled = read.compiled;
        }
        Ok(rules)
    }
}

impl std::str::FromStr for TaflRules {
    type Err = ParseError;

    /// Reads `key=value` options, `otn=...` last if given, onto the
    /// defaults.
    fn from_str(text: &str) -> Result<Self, ParseError> {
        TaflRules::default().read(text)
    }
}

/// The options before `otn=`, and the rules string after it (to the end
/// of the text), if the text has one.
fn split_rules_string(text: &str) -> (&str, Option<&str>) {
    let mut searched = 0;
    while let Some(found) = text[searched..].find("otn=") {
        let at = searched + found;
        let before = text[..at].trim_end();
        if before.is_empty() || before.ends_with(',') {
            return (before.trim_end_matches(','), Some(text[at + 4..].trim()));
        }
        searched = at + 4;
    }
    (text, None)
}

impl fmt::Display for TaflRules {
    /// Every option, `otn` last: text that reads back into the same rules.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::core::write_options(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_are_those_of_the_variants() {
        let names: Vec<&str> = VARIANTS.iter().map(|variant| variant.name).collect();
        assert_eq!(names, VARIANT_NAMES);
        assert_eq!(VARIANTS[FETLAR].name, "fetlar");
    }

    #[test]
    fn rules_text_reads_back_into_the_same_rules() {
        for text in [
            "",
            "variant=brandub",
            "variant=alea-evangelii,ply-limit=none,repetition=defenders-lose",
            "ply-limit=50,otn=dim:7 name:Mine cor:a1,g7, ks:w start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
            "otn=dim:9 esc:e start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
        ] {
            let rules: TaflRules = text.parse().unwrap();
            let again: TaflRules = rules.to_string().parse().unwrap();
            assert_eq!(again, rules, "{text} -> {rules}");
        }
        let brandub: TaflRules = "variant=brandub".parse().unwrap();
        assert_eq!(
            brandub.to_string(),
            "variant=brandub,ply-limit=400,repetition=rules"
        );
        assert_eq!(TaflRules::variant("brandub"), Some(brandub));
        // A variant's rules string is that variant.
        let written = format!("otn={}", VARIANTS[0].rules);
        assert_eq!(written.parse::<TaflRules>().unwrap(), brandub);
        // A variant's name fixes its rules but for the engine's options.
        use crate::core::RulesOptions;
        let shorter = brandub.read_onto("variant=brandub,ply-limit=9").unwrap();
        assert_eq!(shorter.ply_limit, NonZeroU32::new(9));
        assert_eq!(shorter.variant_name(), Some("brandub"));
        for other in ["variant=fetlar", "otn=dim:7 start:/7/7/7/3K3/7/7/t6/"] {
            let error = brandub.read_onto(other).unwrap_err().to_string();
            assert!(error.contains("rules of brandub"), "{error}");
        }
        let custom: TaflRules = "otn=dim:7 start:/7/7/7/3K3/7/7/t6/".parse().unwrap();
        assert!(
            custom
                .to_string()
                .starts_with("ply-limit=400,repetition=rules,otn=dim:7 atkf:y start:")
        );
        assert_eq!(custom.variant_name(), None);
    }

    #[test]
    fn bad_rules_text_is_refused_with_the_reason() {
        for (text, expected) in [
            ("variant=chess", "`variant` takes"),
            (
                "variant=brandub,otn=dim:7 start:/7/7/7/3K3/7/7/7/",
                "not both",
            ),
            ("otn=dim:8 start:/7/", "odd"),
            ("otn=", "no board side"),
            ("ply-limit=0", "ply-limit"),
            ("otn=dim:7 start:/7/7/7/3K3/7/7/7/,otn=x", "8 ranks"),
        ] {
            let error = text
                .parse::<TaflRules>()
                .map(|_| ())
                .unwrap_err()
                .to_string();
            assert!(error.contains(expected), "{text}: {error}");
        }
    }
}
