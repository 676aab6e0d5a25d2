//! The games. Every game folder has the same shape: the state and its rules
//! options, move generation, the rules that end the game, and notation.

mod board_labels;
mod board_text;
pub mod fenrir_cards;
pub mod fenrir_path;
pub mod hnefatafl;
pub mod nibelungen;
pub mod opentafl_text;
pub mod stealth_chess;
pub mod tafl;
pub mod thud;

/// The evaluation of a two-sided zero-sum game for `player`: the payoff
/// once the game is over, otherwise `estimate` (the value for the player
/// `estimated_for`) for that player and its negation for the other.
pub(crate) fn zero_sum_evaluation<G: crate::core::Game>(
    state: &G,
    player: crate::core::Player,
    estimated_for: crate::core::Player,
    estimate: impl FnOnce() -> f64,
) -> f64 {
    if let Some(outcome) = state.status().outcome() {
        return outcome.payoffs.get(player);
    }
    let value = estimate();
    if player == estimated_for {
        value
    } else {
        -value
    }
}

/// The value of tag `key` in the tags of a game record (PGN, OpenTafl),
/// in the order written: the first if the key is written more than once.
pub(crate) fn tag_value<'a>(tags: &'a [(String, String)], key: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(name, _)| name == key)
        .map(|(_, value)| value.as_str())
}

/// Checks a start position built from constants against its documented
/// text: the setup passes the game's validation and prints as the text,
/// and the game's start (`Game::new`) is the state read from the text.
#[cfg(test)]
pub(crate) fn check_start_constants<G>(start: &G::Setup, text: &str, rules: G::Rules)
where
    G: crate::core::Notation + PartialEq + std::fmt::Debug,
    G::Rules: Clone,
{
    assert!(G::from_setup(start, rules.clone()).is_ok());
    assert_eq!(start.to_string(), text);
    let state = G::new(rules.clone());
    assert_eq!(state.position_text(), text);
    assert_eq!(state, G::from_position_text(text, rules).unwrap());
}
