pub mod slow_tafl;
pub mod tictactoe;
