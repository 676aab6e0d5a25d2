//! What single games add above the game layer, one place per game: their
//! own policies, their exact solvers, their engine protocols and records,
//! and their registry entries (`impl Registered`), so that
//! [`crate::registry`] holds only the trait and the list. A game folder
//! under `games/` names no agent and no searcher; what needs those for one
//! game lives here, beside the other additions of that game, instead of
//! spread over `agents/`, `engine/` and the registry.

pub mod fenrir_cards;
pub mod fenrir_path;
pub mod hnefatafl;
pub mod nibelungen;
mod opentafl;
mod stealth_chess;
pub mod tafl;
mod thud;

use crate::arena::RecordedGame;
use crate::core::Game;

/// The games read from another program's record file as records numbered
/// from 1 in file order, each made by `record` from its number and game.
fn numbered_records<T, G: Game>(
    games: Vec<T>,
    record: impl Fn(usize, T) -> RecordedGame<G>,
) -> Vec<RecordedGame<G>> {
    games
        .into_iter()
        .enumerate()
        .map(|(index, game)| record(index + 1, game))
        .collect()
}
