pub mod cli;
pub mod slow_tafl;
pub mod slow_thud;
pub mod tictactoe;
