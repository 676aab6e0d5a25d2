//! The board drawn as a [`Picture`]: a board of the rules' size with its
//! corners and centre (darker, crossed) and fortresses (tinted by owner)
//! marked, one slot per square and a line saying who is to move.

use super::pieces::{Kind, Piece};
use super::rules_string::Region;
use super::state::Tafl;
use crate::core::{Content, Picture, Slot};
use crate::games::board_labels::{BoardLayout, FILE_ROW, PAD, RANK_COLUMN, STATUS, write_labels};
use std::fmt::Write;

/// The symbols of the pieces: a dark disc for the attackers, a light one
/// for the defenders, a crown for the king; a commander carries a ring, a
/// knight a chevron, a mercenary a half-disc of the other side's colour,
/// a guard a square.
const SYMBOLS: &str = r##"<defs>
<symbol id="attacker" viewBox="0 0 100 100"><circle cx="50" cy="50" r="38" fill="#2b2b2b" stroke="#000" stroke-width="4"/><circle cx="50" cy="50" r="21" fill="none" stroke="#6a6a6a" stroke-width="5"/></symbol>
<symbol id="defender" viewBox="0 0 100 100"><circle cx="50" cy="50" r="38" fill="#f6f3ea" stroke="#2b2b2b" stroke-width="4"/><circle cx="50" cy="50" r="21" fill="none" stroke="#b9b2a0" stroke-width="5"/></symbol>
<symbol id="king" viewBox="0 0 100 100"><circle cx="50" cy="50" r="43" fill="#f6f3ea" stroke="#2b2b2b" stroke-width="5"/><path d="M27 68 L23 33 L38 47 L50 25 L62 47 L77 33 L73 68 Z" fill="#d9a521" stroke="#2b2b2b" stroke-width="4" stroke-linejoin="round"/></symbol>
<symbol id="attacker-commander" viewBox="0 0 100 100"><circle cx="50" cy="50" r="38" fill="#2b2b2b" stroke="#000" stroke-width="4"/><circle cx="50" cy="50" r="18" fill="#c0392b" stroke="#e6e6e6" stroke-width="5"/></symbol>
<symbol id="defender-commander" viewBox="0 0 100 100"><circle cx="50" cy="50" r="38" fill="#f6f3ea" stroke="#2b2b2b" stroke-width="4"/><circle cx="50" cy="50" r="18" fill="#c0392b" stroke="#2b2b2b" stroke-width="5"/></symbol>
<symbol id="attacker-knight" viewBox="0 0 100 100"><circle cx="50" cy="50" r="38" fill="#2b2b2b" stroke="#000" stroke-width="4"/><path d="M30 64 L50 32 L70 64" fill="none" stroke="#e6e6e6" stroke-width="8" stroke-linejoin="round"/></symbol>
<symbol id="defender-knight" viewBox="0 0 100 100"><circle cx="50" cy="50" r="38" fill="#f6f3ea" stroke="#2b2b2b" stroke-width="4"/><path d="M30 64 L50 32 L70 64" fill="none" stroke="#2b2b2b" stroke-width="8" stroke-linejoin="round"/></symbol>
<symbol id="attacker-mercenary" viewBox="0 0 100 100"><circle cx="50" cy="50" r="38" fill="#2b2b2b" stroke="#000" stroke-width="4"/><path d="M50 12 A38 38 0 0 1 50 88 Z" fill="#f6f3ea"/></symbol>
<symbol id="defender-mercenary" viewBox="0 0 100 100"><circle cx="50" cy="50" r="38" fill="#f6f3ea" stroke="#2b2b2b" stroke-width="4"/><path d="M50 12 A38 38 0 0 1 50 88 Z" fill="#2b2b2b"/></symbol>
<symbol id="attacker-guard" viewBox="0 0 100 100"><circle cx="50" cy="50" r="38" fill="#2b2b2b" stroke="#000" stroke-width="4"/><rect x="33" y="33" width="34" height="34" fill="#e6e6e6"/></symbol>
<symbol id="defender-guard" viewBox="0 0 100 100"><circle cx="50" cy="50" r="38" fill="#f6f3ea" stroke="#2b2b2b" stroke-width="4"/><rect x="33" y="33" width="34" height="34" fill="#2b2b2b"/></symbol>
</defs>
"##;

/// The symbol of a piece.
pub(crate) fn symbol(piece: Piece) -> String {
    match piece.kind {
        Kind::Taflman => piece.side.name().trim_end_matches('s').to_string(),
        Kind::King => "king".to_string(),
        kind => format!(
            "{}-{}",
            piece.side.name().trim_end_matches('s'),
            kind.name()
        ),
    }
}

/// The layout of a `dim` x `dim` board: squares of 48 units up to 11x11,
/// smaller beyond so that the picture keeps about the 11x11 board's size.
fn layout(dim: usize) -> BoardLayout {
    let square = if dim <= 11 {
        48.0
    } else {
        (528.0 / dim as f32).floor()
    };
    BoardLayout {
        square,
        size: (dim as u8, dim as u8),
        origin: (RANK_COLUMN, PAD),
        room_after: (PAD, FILE_ROW + STATUS),
    }
}

/// The top left corner of square `index`: file `a` on the left, rank 1 at
/// the bottom.
fn corner(layout: BoardLayout, dim: usize, index: usize) -> (f32, f32) {
    layout.corner((index % dim) as u8, (dim - 1 - index / dim) as u8)
}

/// The board under the pieces: the squares, the regions, the grid and
/// the coordinates.
fn frame(state: &Tafl) -> String {
    let dim = state.dim();
    let layout = layout(dim);
    let square = layout.square;
    let (left, width) = (layout.origin.0, layout.board_width());
    let mut svg = layout.frame_start(SYMBOLS);
    // Writing to a String cannot fail.
    let _ = writeln!(
        svg,
        "<rect x=\"{left}\" y=\"{PAD}\" width=\"{width}\" height=\"{width}\" fill=\"#e3c88f\"/>"
    );
    let string = state.rules.rules_string();
    for region in Region::ALL {
        let (fill, crossed) = match region {
            Region::Corner => ("#b5874a", true),
            Region::Centre => ("#a8733c", true),
            Region::AttackerFortress => ("#b99a8a", false),
            Region::DefenderFortress => ("#a9b8a0", false),
        };
        for &index in &string.squares[region as usize] {
            let (x, y) = corner(layout, dim, index);
            let (far_x, far_y) = (x + square, y + square);
            let _ = write!(
                svg,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{square}\" height=\"{square}\" fill=\"{fill}\"/>"
            );
            if crossed {
                let _ = write!(
                    svg,
                    "<path d=\"M{x} {y} L{far_x} {far_y} M{far_x} {y} L{x} {far_y}\" \
                     stroke=\"#8a5a2b\" stroke-width=\"2\"/>"
                );
            } else {
                let _ = write!(
                    svg,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" \
                     stroke=\"#6b5040\" stroke-width=\"2\" stroke-dasharray=\"4 3\"/>",
                    x + 3.0,
                    y + 3.0,
                    square - 6.0,
                    square - 6.0
                );
            }
            svg.push('\n');
        }
    }
    let mut grid = String::new();
    for line in 0..=dim {
        let at = line as f32 * square;
        let _ = write!(
            grid,
            "M{} {PAD} v{width} M{left} {} h{width} ",
            left + at,
            PAD + at
        );
    }
    let _ = writeln!(
        svg,
        "<path d=\"{}\" stroke=\"#7a5a30\" stroke-width=\"1.5\" fill=\"none\"/>",
        grid.trim_end()
    );
    let files = layout.file_letters(('a'..).take(dim), layout.board_bottom() + FILE_ROW / 2.0);
    let ranks = layout.rank_numbers(left / 2.0, false);
    let font = if dim <= 11 { 14 } else { 11 };
    write_labels(&mut svg, font, files.chain(ranks));
    svg
}

/// What the line under the board says: who is to move, or how the game
/// ended.
fn status_text(state: &Tafl) -> String {
    match state.ending {
        Some(reason) => match state.winner(reason) {
            Some(side) => format!("{side} win ({})", reason.name()),
            None => format!("draw ({})", reason.name()),
        },
        None => match state.berserk_square() {
            Some(square) => format!(
                "{} to move (the piece on {} again)",
                state.to_move,
                state.square_name(square)
            ),
            None => format!("{} to move", state.to_move),
        },
    }
}

/// The picture of `state`: a slot per square in index order (`a1`, `b1`,
/// ...), then the line that says who is to move.
pub(super) fn picture(state: &Tafl) -> Picture {
    let dim = state.dim();
    let layout = layout(dim);
    let mut slots: Vec<Slot> = (0..dim * dim)
        .map(|index| {
            let content = match state.piece_at(index) {
                Some(piece) => Content::Piece(symbol(piece)),
                None => Content::Empty,
            };
            layout.square_slot(
                state.square_name(index),
                corner(layout, dim, index),
                content,
            )
        })
        .collect();
    slots.push(layout.status_slot(FILE_ROW, status_text(state)));
    let frame = state
        .rules
        .compiled()
        .frame
        .get_or_init(|| frame(state))
        .clone();
    layout.picture(frame, slots)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, Notation, Viewer, symbol_uses};
    use crate::games::tafl::{TaflRules, VARIANTS};
    use crate::testing::playout_states;

    #[test]
    fn every_piece_is_drawn_once_on_boards_of_every_size() {
        for variant in VARIANTS {
            let start = Tafl::new(TaflRules::variant(variant.name).unwrap());
            let layout = start.picture();
            let dim = start.dim();
            assert_eq!(layout.slots.len(), dim * dim + 1);
            for state in playout_states(&start, 2, 60, 3) {
                let picture = state.picture();
                assert!(picture.same_layout(&layout), "{}", state.position_text());
                let svg = picture.svg(Viewer::All);
                let pieces = (0..dim * dim).filter_map(|index| state.piece_at(index));
                let mut expected = std::collections::HashMap::new();
                for piece in pieces {
                    *expected.entry(symbol(piece)).or_insert(0) += 1;
                }
                for (id, count) in expected {
                    assert_eq!(symbol_uses(&svg, &id), count, "{} {id}", variant.name);
                }
            }
            // The regions are drawn: corners and centre crossed, fortresses
            // outlined.
            let string = start.rules.rules_string();
            let crossed = string.squares[0].len() + string.squares[1].len();
            let outlined = string.squares[2].len() + string.squares[3].len();
            assert_eq!(
                layout.frame.matches("stroke=\"#8a5a2b\"").count(),
                crossed,
                "{}",
                variant.name
            );
            assert_eq!(
                layout.frame.matches("stroke-dasharray").count(),
                outlined,
                "{}",
                variant.name
            );
        }
    }
}
