//! Stealth Chess's moves as action ids and positions as tensors.
//!
//! A move's first decision is its from-square and to-square on the 10x8
//! board: id `from * 80 + to` (6,400 ids). Two kinds of move take a second
//! decision: a promotion, its kind (ids 6,400 to 6,403: queen, rook,
//! bishop, knight), and an Assassin that emerges to capture, the square
//! where it emerges (ids 6,404 to 6,483, by square). Every other move is
//! one decision.
//!
//! The observation is 22 planes of 8 ranks by 10 files (rank 1 first):
//! White's pawns, knights, bishops, rooks, queens, king and Assassins, the
//! same for Black, then for each Assassin in a Slurk its Slurk moves so far
//! (divided by 15, the count that frees it, and capped at 1) on its square
//! and a one on its entry point; a plane of ones when White is to move;
//! one plane of ones per castling right still held (`KQkq`); and the en
//! passant square.

use super::board::{GRID, SLURKS, square_name};
use super::{Kind, Side, Special, StealthChess, StealthChessMove, StealthChessRules};
use crate::bitboard::Square;
use crate::core::{ActionPath, Encoding, Player, length_within};

/// The squares of the board.
const SQUARES: u32 = 80;
/// The first id of a promotion's kind.
const PROMOTION_IDS: u32 = SQUARES * SQUARES;
/// The first id of an emergence square.
const EMERGENCE_IDS: u32 = PROMOTION_IDS + Kind::PROMOTIONS.len() as u32;
/// Planes of the observation tensor.
const PLANES: usize = 22;
/// The Slurk moves after which an Assassin may emerge anywhere.
const FREEING_COUNT: f32 = 15.0;

impl Encoding for StealthChess {
    fn max_game_length(rules: &StealthChessRules) -> Option<usize> {
        // A promotion and an emerging capture take a second decision.
        length_within(rules.ply_limit, 2)
    }

    fn num_actions(_: &StealthChessRules) -> usize {
        (EMERGENCE_IDS + SQUARES) as usize
    }

    fn action_path(&self, mv: StealthChessMove, path: &mut ActionPath) {
        path.push(mv.from.index() as u32 * SQUARES + mv.to.index() as u32);
        match mv.special {
            Special::Promotion(kind) => {
                let index = Kind::PROMOTIONS
                    .iter()
                    .position(|&promotion| promotion == kind)
                    .expect("a pawn promotes to one of the four kinds");
                path.push(PROMOTION_IDS + index as u32);
            }
            Special::EmergeCapture(via) => path.push(EMERGENCE_IDS + via.index() as u32),
            Special::None | Special::DoublePush | Special::EnPassant | Special::Castle => {}
        }
    }

    fn action_name(_: &StealthChessRules, id: u32) -> String {
        let square = |index: u32| square_name(Square::new(index as u8));
        if id < PROMOTION_IDS {
            format!("{}{}", square(id / SQUARES), square(id % SQUARES))
        } else if id < EMERGENCE_IDS {
            let kind = Kind::PROMOTIONS[(id - PROMOTION_IDS) as usize];
            format!("={}", kind.letter())
        } else {
            format!("via {}", square(id - EMERGENCE_IDS))
        }
    }

    fn observation_shape(_: &StealthChessRules) -> Vec<usize> {
        vec![PLANES, GRID.height() as usize, GRID.width() as usize]
    }

    fn write_observation(&self, _: Player, _: &[u32], out: &mut [f32]) {
        let plane = GRID.len();
        let mut planes = out.chunks_exact_mut(plane);
        for side in [Side::White, Side::Black] {
            for kind in Kind::ALL {
                let values = planes.next().expect("a plane per side and kind");
                for square in self.pieces(side, kind).squares() {
                    values[square.index()] = 1.0;
                }
            }
        }
        let counts = planes.next().expect("the Slurk counts");
        let entries = planes.next().expect("the entry points");
        for square in (SLURKS & self.kind_pieces(Kind::Assassin)).squares() {
            if let Some(mark) = self.slurk_mark(square) {
                counts[square.index()] = (f32::from(mark.count) / FREEING_COUNT).min(1.0);
                entries[mark.entry.index()] = 1.0;
            }
        }
        if self.side_to_move() == Side::White {
            planes.next().expect("the side to move").fill(1.0);
        } else {
            planes.next();
        }
        for right in 0..4 {
            let values = planes.next().expect("a plane per castling right");
            if self.castling_rights() & (1 << right) != 0 {
                values.fill(1.0);
            }
        }
        if let Some(square) = self.en_passant() {
            planes.next().expect("the en passant plane")[square.index()] = 1.0;
        }
    }
}
