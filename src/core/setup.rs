//! Positions as written, before the rules check them.

use super::ParseError;
use std::fmt::{Debug, Display};
use std::str::FromStr;

/// A position or a deal as written: read from text without the rules, and
/// printed back as text that reads as the same setup.
///
/// Reading a position is two steps, the same for every game, as shakmaty
/// separates its `Setup` from its `Position`. Parsing (`FromStr`) checks
/// only the text: malformed text is a [`ParseError`] that names the
/// problem. [`Notation::from_setup`](super::Notation::from_setup) then
/// checks the setup against the rules (piece counts, a deal that fits the
/// deck, a legal side to move) and makes the state, and
/// [`Notation::setup`](super::Notation::setup) gives a state's setup back.
/// Neither step panics on any input, so generic code (the fuzz entry points,
/// the command line, the game records) reads every game's positions the
/// same way through [`Notation::from_position_text`](super::Notation::from_position_text).
///
/// # Example
///
/// Any game's position, read in the two steps:
///
/// ```
/// use norn::core::{Game, Notation, ParseError};
/// use norn::games::fenrir_path::{FenrirPath, FenrirPathRules};
/// use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
///
/// fn read<G: Notation>(text: &str, rules: G::Rules) -> Result<G, ParseError> {
///     let setup: G::Setup = text.parse()?; // the text alone
///     G::from_setup(&setup, rules) // against the rules
/// }
///
/// let start = Hnefatafl::new(HnefataflRules::default());
/// let text = start.setup().to_string();
/// let read_back: Hnefatafl = read(&text, HnefataflRules::default())?;
/// assert_eq!(read_back.position_text(), text);
/// assert!(read::<Hnefatafl>("not a position", HnefataflRules::default()).is_err());
///
/// // A deal of Fenrir's Path reads as text, but the standard game deals
/// // four colours of six tiles, not two of one.
/// let small_deal: <FenrirPath as Notation>::Setup = "RB:RB".parse()?;
/// let refused = FenrirPath::from_setup(&small_deal, FenrirPathRules::default());
/// assert!(refused.unwrap_err().to_string().contains("2 tiles"));
/// # Ok::<(), ParseError>(())
/// ```
pub trait Setup:
    FromStr<Err = ParseError> + Display + Clone + Debug + PartialEq + Send + Sync + 'static
{
}
