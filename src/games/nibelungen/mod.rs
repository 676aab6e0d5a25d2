//! Nibelungen: a two-player game of simultaneous secret choices on a
//! triangle of fifteen points. Each round Tod (Tragic Destiny) and NO
//! (Natural Order) secretly choose two of the five characters; the reveal
//! decides which characters move and how far, and they move in sequence
//! order, each by the player who chose it. NO wins when Siegfried is alone
//! in a castle with Brunhild or Kriemhild; Tod wins when Gunther marries
//! Brunhild (Gunther, Siegfried and Brunhild fill a castle) or when
//! Gunther and Hagen murder Siegfried in one of the four central small
//! triangles.
//!
//! docs/rules/nibelungen.md states the rules with the house rules this
//! engine settles; [`NibelungenRules`] holds them all. The choice of pairs
//! is a [`crate::core::Simultaneous`] state (one joint move of two pairs);
//! each character's move is an ordinary move of the player who chose it,
//! named by the point where the character ends. Player 0 is Tod, player 1
//! NO.
//!
//! ```
//! use norn::core::{Game, MoveList, Notation, Ply, PlyText, Simultaneous, Status};
//! use norn::games::nibelungen::{Nibelungen, NibelungenRules};
//!
//! let mut game = Nibelungen::new(NibelungenRules::default());
//! assert_eq!(game.position_text(), "33,44,43,30,10:SB:-");
//! assert_eq!(game.status(), Status::Simultaneous);
//! let mut pairs = MoveList::new();
//! game.player_moves(0, &mut pairs);
//! assert_eq!(pairs.len(), 3); // Tod chooses among Gunther, Kriemhild and Hagen
//! game.player_moves(1, &mut pairs);
//! assert_eq!(pairs.len(), 9); // NO among all five, but not Siegfried with Brunhild
//! // Tod reveals Gunther and Hagen, NO Hagen and Siegfried: Hagen, chosen
//! // by both, stays; Gunther (Tod's) and Siegfried (NO's) move up to two steps.
//! let reveal = game.parse_ply(&PlyText::Joint(vec!["GH".into(), "HS".into()])).unwrap();
//! game.try_play_ply(&reveal).unwrap();
//! assert_eq!(game.position_text(), "33,44,43,30,10:GH:HS:G");
//! assert_eq!(game.status(), Status::ToMove(0));
//! let gunther = game.parse_move("32").unwrap();
//! game.try_play(gunther).unwrap();
//! assert_eq!(game.status(), Status::ToMove(1)); // Siegfried, moved by NO
//! let mut moves = MoveList::new();
//! game.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 7); // staying on 30, or 20 21 31 40 41 42
//! ```

mod board;
mod encoding;
mod eval;
mod movegen;
mod moves;
mod notation;
mod options;
mod picture;
mod rules;
mod setup;
mod state;

pub use board::{
    CASTLE_POINTS, CASTLES, Castle, DISTANCE, MURDER_TRIANGLES, NEIGHBOURS, POINTS, ROWS,
    SMALL_TRIANGLES, bit, parse_point, point, point_name, points_of,
};
pub use movegen::reachable;
pub use moves::{Character, NibelungenMove, Pair};
pub use options::{NibelungenRules, WinCheck};
pub use rules::condition_of;
pub use setup::{NibelungenSetup, START_POINTS};
pub use state::{EndReason, Nibelungen, Side};
