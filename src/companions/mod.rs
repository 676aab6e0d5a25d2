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
mod stealth_chess;
mod thud;
