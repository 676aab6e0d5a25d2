//! What single games add above the game layer, one folder per game: their
//! own policies, their exact solvers, their engine protocols and records,
//! and their registry entries. A game folder under `games/` names no agent
//! and no searcher; what needs those for one game lives here, beside the
//! other additions of that game, instead of spread over `agents/`,
//! `engine/` and the registry.

pub mod fenrir_cards;
pub mod fenrir_path;
pub mod hnefatafl;
pub mod nibelungen;
