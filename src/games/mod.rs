//! The games. Every game folder has the same shape: the state and its rules
//! options, move generation, the rules that end the game, and notation.

mod board_text;
pub mod fenrir_cards;
pub mod fenrir_path;
pub mod hnefatafl;
pub mod nibelungen;
pub mod stealth_chess;
pub mod thud;
