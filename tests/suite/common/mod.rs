pub mod cli;
pub mod goofspiel;
pub mod moves;
pub mod positions;
pub mod slow_stealth_chess;
pub mod slow_tafl;
pub mod slow_thud;
pub mod tictactoe;
