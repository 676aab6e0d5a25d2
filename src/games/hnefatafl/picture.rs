//! The board drawn as a [`Picture`]: the 11x11 board with its throne and
//! corners marked, one slot per square and a line saying who is to move.

use super::board::{CORNERS, GRID, RESTRICTED, SIZE};
use super::state::Hnefatafl;
use crate::bitboard::Square;
use crate::core::{Content, Picture, Slot};
use crate::games::board_labels::{BoardLayout, FILE_ROW, PAD, RANK_COLUMN, STATUS, write_labels};
use std::fmt::Write;
use std::sync::LazyLock;

/// The side of a square, in SVG user units.
const SQUARE: f32 = 48.0;
/// The board, with the rank numbers left of it and under it the file
/// letters and the line that says who is to move.
const LAYOUT: BoardLayout = BoardLayout {
    square: SQUARE,
    size: (SIZE, SIZE),
    origin: (RANK_COLUMN, PAD),
    room_after: (PAD, FILE_ROW + STATUS),
};
/// The left edge of the board.
const LEFT: f32 = LAYOUT.origin.0;
const BOARD: f32 = LAYOUT.board_width();

/// The symbols of the three kinds of piece.
const SYMBOLS: &str = r##"<defs>
<symbol id="attacker" viewBox="0 0 100 100"><circle cx="50" cy="50" r="38" fill="#2b2b2b" stroke="#000" stroke-width="4"/><circle cx="50" cy="50" r="21" fill="none" stroke="#6a6a6a" stroke-width="5"/></symbol>
<symbol id="defender" viewBox="0 0 100 100"><circle cx="50" cy="50" r="38" fill="#f6f3ea" stroke="#2b2b2b" stroke-width="4"/><circle cx="50" cy="50" r="21" fill="none" stroke="#b9b2a0" stroke-width="5"/></symbol>
<symbol id="king" viewBox="0 0 100 100"><circle cx="50" cy="50" r="43" fill="#f6f3ea" stroke="#2b2b2b" stroke-width="5"/><path d="M27 68 L23 33 L38 47 L50 25 L62 47 L77 33 L73 68 Z" fill="#d9a521" stroke="#2b2b2b" stroke-width="4" stroke-linejoin="round"/></symbol>
</defs>
"##;

/// The frame: the same for every position, so it is drawn once.
static FRAME: LazyLock<String> = LazyLock::new(frame);

/// The top left corner of `square`: file `a` on the left, rank 1 at the bottom.
fn corner(square: Square) -> (f32, f32) {
    LAYOUT.corner(GRID.file(square), SIZE - 1 - GRID.rank(square))
}

/// The board under the pieces: the squares, the throne and the corners
/// (darker, with a cross), the grid and the coordinates.
fn frame() -> String {
    let mut svg = LAYOUT.frame_start(SYMBOLS);
    // Writing to a String cannot fail.
    let _ = writeln!(
        svg,
        "<rect x=\"{LEFT}\" y=\"{PAD}\" width=\"{BOARD}\" height=\"{BOARD}\" fill=\"#e3c88f\"/>"
    );
    for square in RESTRICTED.squares() {
        let (x, y) = corner(square);
        let (far_x, far_y) = (x + SQUARE, y + SQUARE);
        let fill = if CORNERS.contains(square) {
            "#b5874a"
        } else {
            "#a8733c"
        };
        let _ = writeln!(
            svg,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{fill}\"/>\
             <path d=\"M{x} {y} L{far_x} {far_y} M{far_x} {y} L{x} {far_y}\" \
             stroke=\"#8a5a2b\" stroke-width=\"2\"/>"
        );
    }
    let mut grid = String::new();
    for line in 0..=SIZE {
        let at = f32::from(line) * SQUARE;
        let _ = write!(
            grid,
            "M{} {PAD} v{BOARD} M{LEFT} {} h{BOARD} ",
            LEFT + at,
            PAD + at
        );
    }
    let _ = writeln!(
        svg,
        "<path d=\"{}\" stroke=\"#7a5a30\" stroke-width=\"1.5\" fill=\"none\"/>",
        grid.trim_end()
    );
    let files = LAYOUT.file_letters(
        ('a'..).take(SIZE.into()),
        LAYOUT.board_bottom() + FILE_ROW / 2.0,
    );
    let ranks = LAYOUT.rank_numbers(LEFT / 2.0, false);
    write_labels(&mut svg, 14, files.chain(ranks));
    svg
}

/// What the line under the board says: who is to move, or how the game
/// ended.
fn status_text(state: &Hnefatafl) -> String {
    match state.ending {
        Some(reason) => match state.winner(reason) {
            Some(side) => format!("{side} win ({})", reason.name()),
            None => format!("draw ({})", reason.name()),
        },
        None => format!("{} to move", state.to_move),
    }
}

/// The picture of `state`: a slot per square in index order (`a1`, `b1`,
/// ..., `k11`), then the line that says who is to move.
pub(super) fn picture(state: &Hnefatafl) -> Picture {
    let mut slots: Vec<Slot> = (0..GRID.len())
        .map(|index| {
            let square = Square::new(index as u8);
            let content = if state.attackers.contains(square) {
                Content::Piece("attacker".into())
            } else if state.defenders.contains(square) {
                Content::Piece("defender".into())
            } else if state.king == square {
                Content::Piece("king".into())
            } else {
                Content::Empty
            };
            LAYOUT.square_slot(super::board::square_name(square), corner(square), content)
        })
        .collect();
    slots.push(LAYOUT.status_slot(FILE_ROW, status_text(state)));
    LAYOUT.picture(FRAME.clone(), slots)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::symbol_uses;
    use crate::core::{Game, Notation, Viewer};
    use crate::games::hnefatafl::HnefataflRules;
    use crate::testing::playout_states;

    #[test]
    fn every_piece_is_drawn_once_on_a_board_of_fixed_layout() {
        let start = Hnefatafl::new(HnefataflRules::default());
        let layout = start.picture();
        assert_eq!(layout.slots.len(), 122);
        let states = playout_states(&start, 6, 200, 1);
        for state in &states {
            let picture = state.picture();
            assert!(picture.same_layout(&layout), "{}", state.position_text());
            let svg = picture.svg(Viewer::All);
            assert_eq!(
                symbol_uses(&svg, "attacker"),
                state.attackers.count() as usize
            );
            assert_eq!(
                symbol_uses(&svg, "defender"),
                state.defenders.count() as usize
            );
            assert_eq!(symbol_uses(&svg, "king"), 1);
            assert_eq!(
                svg.matches("<use ").count(),
                state.occupied().count() as usize
            );
        }
        assert!(states.len() > 100, "{} positions", states.len());
    }

    #[test]
    fn squares_are_named_and_placed_as_in_the_notation() {
        let start = Hnefatafl::new(HnefataflRules::default());
        let picture = start.picture();
        let slot = |name: &str| {
            picture
                .slots
                .iter()
                .find(|slot| slot.name == name)
                .unwrap_or_else(|| panic!("no slot {name}"))
        };
        // a1 is the bottom left corner, k11 the top right one.
        assert_eq!((slot("a1").x, slot("a1").y), (LEFT, PAD + 10.0 * SQUARE));
        assert_eq!((slot("k11").x, slot("k11").y), (LEFT + 10.0 * SQUARE, PAD));
        assert_eq!(slot("f6").content, Content::Piece("king".into()));
        assert_eq!(slot("d1").content, Content::Piece("attacker".into()));
        assert_eq!(slot("f4").content, Content::Piece("defender".into()));
        assert_eq!(slot("a1").content, Content::Empty);
        assert_eq!(
            slot("to move").content,
            Content::Text("attackers to move".into())
        );
    }
}
