//! The board drawn as a [`Picture`]: the chessboard between the red and
//! white Slurks, a slot per square, beside each Slurk square two text slots
//! for the Slurk count and the entry point of an Assassin hiding there, and
//! a line under the board saying who is to move.

use super::board::{FILES, GRID, Kind, RANKS, SLURKS, Side, square_name};
use super::state::StealthChess;
use crate::bitboard::Square;
use crate::core::{Content, Picture, Slot};
use crate::games::board_labels::{BoardLayout, PAD, STATUS, write_labels};
use std::fmt::Write;
use std::sync::LazyLock;

/// The side of a square, in SVG user units.
const SQUARE: f32 = 56.0;
/// The width of the column of Slurk texts beside each Slurk.
const INFO: f32 = 84.0;
/// The width of the columns of rank numbers, on both sides of the board.
const RANK_COLUMN: f32 = 18.0;
/// The room under the board for the file letters.
const FILE_ROW: f32 = 22.0;
/// The board, with on each side the rank numbers and the column of Slurk
/// texts, and under it the file letters and the line that says who is to
/// move.
const LAYOUT: BoardLayout = BoardLayout {
    square: SQUARE,
    size: (FILES, RANKS),
    origin: (INFO + RANK_COLUMN, PAD),
    room_after: (INFO + RANK_COLUMN, FILE_ROW + STATUS + PAD),
};
const BOARD_WIDTH: f32 = LAYOUT.board_width();
const BOARD_HEIGHT: f32 = LAYOUT.board_height();
/// The left edge of the board.
const BOARD_LEFT: f32 = LAYOUT.origin.0;
const WIDTH: f32 = LAYOUT.width();

/// The frame: the same for every position, so it is drawn once.
static FRAME: LazyLock<String> = LazyLock::new(frame);

/// The name of a kind in symbol ids.
fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Pawn => "pawn",
        Kind::Knight => "knight",
        Kind::Bishop => "bishop",
        Kind::Rook => "rook",
        Kind::Queen => "queen",
        Kind::King => "king",
        Kind::Assassin => "assassin",
    }
}

/// The id of the symbol of a piece, such as `white-knight`.
fn symbol(side: Side, kind: Kind) -> String {
    format!("{side}-{}", kind_name(kind))
}

/// The outline of a kind in a 100x100 box, and the height of its letter's
/// baseline: each kind its own silhouette, so that pieces differ by shape
/// as well as by letter.
fn outline(kind: Kind) -> (&'static str, u32) {
    match kind {
        Kind::Pawn => ("M24 88 Q26 58 40 50 A16 16 0 1 1 60 50 Q74 58 76 88 Z", 80),
        Kind::Knight => (
            "M24 88 L28 62 Q22 46 36 32 L34 12 L48 24 Q78 24 84 58 L84 88 Z",
            76,
        ),
        Kind::Bishop => ("M50 8 Q86 46 72 88 L28 88 Q14 46 50 8 Z M50 8 L50 2", 72),
        Kind::Rook => (
            "M20 88 L24 30 L18 30 L18 12 L33 12 L33 22 L43 22 L43 12 L57 12 L57 22 \
             L67 22 L67 12 L82 12 L82 30 L76 30 L80 88 Z",
            70,
        ),
        Kind::Queen => (
            "M18 88 L8 28 L30 50 L38 12 L50 44 L62 12 L70 50 L92 28 L82 88 Z",
            78,
        ),
        Kind::King => (
            "M20 88 L14 40 Q50 22 86 40 L80 88 Z M44 4 H56 V12 H64 V22 H56 V32 H44 V22 H36 V12 H44 Z",
            74,
        ),
        Kind::Assassin => ("M50 6 L90 50 L50 94 L10 50 Z", 62),
    }
}

/// The symbols of the fourteen pieces: white pieces light with a dark
/// letter, black ones dark with a light letter.
fn symbols() -> String {
    let mut svg = String::from("<defs>\n");
    for side in [Side::White, Side::Black] {
        let (fill, ink) = match side {
            Side::White => ("#fbfaf6", "#262626"),
            Side::Black => ("#2e2e2e", "#f4f1ea"),
        };
        for kind in Kind::ALL {
            let (path, baseline) = outline(kind);
            // Writing to a String cannot fail.
            let _ = writeln!(
                svg,
                "<symbol id=\"{}\" viewBox=\"0 0 100 100\"><path d=\"{path}\" fill=\"{fill}\" \
                 stroke=\"#111\" stroke-width=\"4\" stroke-linejoin=\"round\"/>\
                 <text x=\"50\" y=\"{baseline}\" font-size=\"30\" font-weight=\"bold\" \
                 text-anchor=\"middle\" fill=\"{ink}\">{}</text></symbol>",
                symbol(side, kind),
                kind.letter()
            );
        }
    }
    svg.push_str("</defs>\n");
    svg
}

/// The top left corner of `square`: file `a` on the left, rank 1 at the bottom.
fn corner(square: Square) -> (f32, f32) {
    LAYOUT.corner(GRID.file(square), RANKS - 1 - GRID.rank(square))
}

/// The left edge of the column of texts beside the Slurk square `square`.
fn info_left(square: Square) -> f32 {
    if GRID.file(square) == 0 {
        0.0
    } else {
        WIDTH - INFO
    }
}

/// The board under the pieces: the chessboard, the Slurks in red and
/// white, the boxes of the Slurk texts and the coordinates.
fn frame() -> String {
    let mut svg = LAYOUT.frame_start(&symbols());
    for index in 0..GRID.len() {
        let square = Square::new(index as u8);
        let (x, y) = corner(square);
        let light = (GRID.file(square) + GRID.rank(square)).is_multiple_of(2);
        let fill = match (SLURKS.contains(square), light) {
            (true, true) => "#f7f2ec",
            (true, false) => "#c8503f",
            (false, true) => "#f0d9b5",
            (false, false) => "#b58863",
        };
        let _ = writeln!(
            svg,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{fill}\"/>"
        );
        if SLURKS.contains(square) {
            let _ = writeln!(
                svg,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"6\" fill=\"#e8e0d4\"/>",
                info_left(square) + 3.0,
                y + 3.0,
                INFO - 6.0,
                SQUARE - 6.0
            );
        }
    }
    // The Slurks' borders with the chessboard.
    let _ = writeln!(
        svg,
        "<path d=\"M{} {PAD} v{BOARD_HEIGHT} M{} {PAD} v{BOARD_HEIGHT}\" stroke=\"#5a3a2a\" \
         stroke-width=\"3\"/>",
        BOARD_LEFT + SQUARE,
        BOARD_LEFT + BOARD_WIDTH - SQUARE
    );
    let files = LAYOUT.file_letters(
        ('a'..).take(FILES.into()),
        LAYOUT.board_bottom() + FILE_ROW / 2.0,
    );
    // The ranks on both sides, beside each Slurk.
    let ranks = LAYOUT
        .rank_numbers(INFO + RANK_COLUMN / 2.0, false)
        .zip(LAYOUT.rank_numbers(WIDTH - INFO - RANK_COLUMN / 2.0, false))
        .flat_map(|(left, right)| [left, right]);
    write_labels(&mut svg, 13, files.chain(ranks));
    svg
}

/// What the line under the board says: who is to move and whether in
/// check, or how the game ended.
fn status_text(state: &StealthChess) -> String {
    match state.ending() {
        Some(reason) => match state.winner(reason) {
            Some(side) => format!("{side} wins ({})", reason.name()),
            None => format!("draw ({})", reason.name()),
        },
        None if state.in_check() => format!("{} to move, in check", state.to_move),
        None => format!("{} to move", state.to_move),
    }
}

/// The picture of `state`: a slot per square in index order (`a1`, `b1`,
/// ..., `j8`), the line that says who is to move, then for each Slurk
/// square in index order its Slurk count and its entry point.
pub(super) fn picture(state: &StealthChess) -> Picture {
    let mut slots: Vec<Slot> = (0..GRID.len())
        .map(|index| {
            let square = Square::new(index as u8);
            let content = state.piece_at(square).map_or(Content::Empty, |piece| {
                Content::Piece(symbol(piece.side, piece.kind))
            });
            LAYOUT.square_slot(square_name(square), corner(square), content)
        })
        .collect();
    slots.push(LAYOUT.status_slot(FILE_ROW, status_text(state)));
    for square in SLURKS.squares() {
        let name = square_name(square);
        let mark = state.slurk_mark(square);
        let (x, y) = (info_left(square) + 4.0, corner(square).1);
        let count = mark.map_or(Content::Empty, |mark| {
            Content::Text(format!("count {}", mark.count))
        });
        let entry = mark.map_or(Content::Empty, |mark| {
            Content::Text(format!("from {}", square_name(mark.entry)))
        });
        slots.push(Slot::new(
            format!("{name} Slurk count"),
            x,
            y + 6.0,
            (INFO - 8.0, 24.0),
            count,
        ));
        slots.push(Slot::new(
            format!("{name} entry point"),
            x,
            y + 30.0,
            (INFO - 8.0, 20.0),
            entry,
        ));
    }
    LAYOUT.picture(FRAME.clone(), slots)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::symbol_uses;
    use crate::core::{Game, Notation, Viewer};
    use crate::games::stealth_chess::StealthChessRules;
    use crate::testing::playout_states;

    /// The content of the slot called `name`.
    fn content(picture: &Picture, name: &str) -> Content {
        let slot = picture.slots.iter().find(|slot| slot.name == name);
        slot.unwrap_or_else(|| panic!("no slot {name}"))
            .content
            .clone()
    }

    /// The contents of the Slurk count and entry point slots beside the
    /// Slurk square `name`.
    fn slurk_texts(picture: &Picture, name: &str) -> (Content, Content) {
        (
            content(picture, &format!("{name} Slurk count")),
            content(picture, &format!("{name} entry point")),
        )
    }

    /// Texts `count` and `entry`, as [`slurk_texts`] returns them.
    fn texts(count: &str, entry: &str) -> (Content, Content) {
        (Content::Text(count.into()), Content::Text(entry.into()))
    }

    #[test]
    fn every_piece_and_hidden_assassin_is_drawn_on_a_board_of_fixed_layout() {
        let start = StealthChess::new(StealthChessRules::default());
        let layout = start.picture();
        assert_eq!(layout.slots.len(), 80 + 1 + 32);
        let states = playout_states(&start, 8, 160, 1);
        let mut counted_marks = 0;
        for state in &states {
            let picture = state.picture();
            assert!(picture.same_layout(&layout), "{}", state.position_text());
            let svg = picture.svg(Viewer::All);
            for side in [Side::White, Side::Black] {
                for kind in Kind::ALL {
                    let pieces = state.sides[side.player()] & state.kinds[kind.index()];
                    assert_eq!(
                        symbol_uses(&svg, &symbol(side, kind)),
                        pieces.count() as usize,
                        "{side} {kind:?} in {}",
                        state.position_text()
                    );
                }
            }
            let hidden = state.kinds[Kind::Assassin.index()] & SLURKS;
            for square in SLURKS.squares() {
                let name = square_name(square);
                let (count, entry) = slurk_texts(&picture, &name);
                if hidden.contains(square) {
                    let mark = state.slurk[super::super::board::slurk_slot(square)];
                    assert_eq!(count, Content::Text(format!("count {}", mark.count)));
                    let entry_name = square_name(mark.entry);
                    assert_eq!(entry, Content::Text(format!("from {entry_name}")));
                    counted_marks += usize::from(mark.count > 0);
                } else {
                    assert_eq!((count, entry), (Content::Empty, Content::Empty));
                }
            }
        }
        assert!(states.len() > 100, "{} positions", states.len());
        // Assassins did walk in the Slurks in the sample.
        assert!(counted_marks > 10, "{counted_marks} Slurk counts above 0");
    }

    #[test]
    fn the_start_is_drawn_as_the_rules_set_it_up() {
        let start = StealthChess::new(StealthChessRules::default());
        let picture = start.picture();
        assert_eq!(
            content(&picture, "a1"),
            Content::Piece("white-assassin".into())
        );
        assert_eq!(content(&picture, "f1"), Content::Piece("white-king".into()));
        assert_eq!(
            content(&picture, "e8"),
            Content::Piece("black-queen".into())
        );
        assert_eq!(content(&picture, "i7"), Content::Piece("black-pawn".into()));
        assert_eq!(content(&picture, "a4"), Content::Empty);
        assert_eq!(slurk_texts(&picture, "j8"), texts("count 0", "from j8"));
        assert_eq!(content(&picture, "j7 entry point"), Content::Empty);
        assert_eq!(
            content(&picture, "to move"),
            Content::Text("white to move".into())
        );
        let a1 = picture.slots.iter().find(|slot| slot.name == "a1").unwrap();
        assert_eq!((a1.x, a1.y), (BOARD_LEFT, PAD + 7.0 * SQUARE));
        // After a1a2 the Assassin on a2 has walked one Slurk move from a1.
        let mut next = start.clone();
        next.play(next.parse_move("a1a2").unwrap());
        let picture = next.picture();
        assert_eq!(slurk_texts(&picture, "a2"), texts("count 1", "from a1"));
        assert_eq!(content(&picture, "a1 Slurk count"), Content::Empty);
    }
}
