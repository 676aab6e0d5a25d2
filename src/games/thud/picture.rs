//! The octagonal board drawn as a [`Picture`], for both games: a slot per
//! playable square (the Thudstone or the Rock is a piece in its slot), and
//! under the board the lines of text with who is to move and the counters.
//! Koom Valley Thud marks its goal squares.

use super::board::{CENTRE, PLAYABLE, SIZE, column, row, square_name};
use super::classic::Thud;
use super::koom_valley::{GOAL, KoomValley, TROLLS_AROUND_ROCK};
use crate::bitboard::{Bitboard256, Square};
use crate::core::{Content, Picture, Slot};
use crate::games::board_labels::{BoardLayout, FILE_ROW, PAD, RANK_COLUMN, write_labels};
use std::fmt::Write;
use std::sync::LazyLock;

/// The side of a square, in SVG user units.
const SQUARE: f32 = 40.0;
/// The height of a line of text under the board.
const LINE: f32 = 26.0;
/// How many lines of text each game writes under the board.
const LINES: usize = 3;
/// The board, with the rank numbers left of it, the file letters above it
/// and under it the lines of text.
const LAYOUT: BoardLayout = BoardLayout {
    square: SQUARE,
    size: (SIZE, SIZE),
    origin: (RANK_COLUMN, FILE_ROW),
    room_after: (PAD, PAD + LINES as f32 * LINE + PAD),
};
/// The left edge of the board.
const LEFT: f32 = LAYOUT.origin.0;
const BOARD: f32 = LAYOUT.board_width();

/// The file letters, as the square names write them.
const FILES: &str = "ABCDEFGHJKLMNOP";

/// The symbol of the Thudstone, and of the Rock of Koom Valley Thud.
const ROCK: &str = "rock";

/// The symbols of the pieces.
const SYMBOLS: &str = r##"<defs>
<symbol id="dwarf" viewBox="0 0 100 100"><circle cx="50" cy="50" r="38" fill="#3a6fb0" stroke="#1d3c66" stroke-width="4"/><path d="M24 48 A26 26 0 0 1 76 48 Z" fill="#aab4be" stroke="#1d3c66" stroke-width="4" stroke-linejoin="round"/><path d="M30 56 Q50 96 70 56 Z" fill="#ecdcb4" stroke="#1d3c66" stroke-width="4" stroke-linejoin="round"/></symbol>
<symbol id="troll" viewBox="0 0 100 100"><rect x="9" y="9" width="82" height="82" rx="24" fill="#4f8a3a" stroke="#26461b" stroke-width="4"/><circle cx="35" cy="40" r="8" fill="#f3ebc8"/><circle cx="65" cy="40" r="8" fill="#f3ebc8"/><path d="M30 68 Q50 56 70 68" fill="none" stroke="#26461b" stroke-width="6" stroke-linecap="round"/></symbol>
<symbol id="rock" viewBox="0 0 100 100"><path d="M16 60 L24 28 L48 13 L76 22 L88 50 L78 80 L44 89 L20 80 Z" fill="#8f8f8f" stroke="#474747" stroke-width="4" stroke-linejoin="round"/><path d="M36 40 L50 52 L46 68 M58 30 L66 46" fill="none" stroke="#5e5e5e" stroke-width="4" stroke-linecap="round"/></symbol>
</defs>
"##;

/// The frame of classic Thud: no square is marked.
static CLASSIC_FRAME: LazyLock<String> = LazyLock::new(|| frame(Bitboard256::EMPTY));
/// The frame of Koom Valley Thud, with its goal squares.
static KOOM_VALLEY_FRAME: LazyLock<String> = LazyLock::new(|| frame(GOAL));

/// The top left corner of `square`: file `A` on the left, rank 1 at the top.
fn corner(square: Square) -> (f32, f32) {
    LAYOUT.corner(column(square), row(square))
}

/// The board under the pieces: the playable squares in two shades, the
/// `marked` ones in green, and the coordinates.
fn frame(marked: Bitboard256) -> String {
    let mut svg = LAYOUT.frame_start(SYMBOLS);
    for square in PLAYABLE.squares() {
        let (x, y) = corner(square);
        let light = (column(square) + row(square)).is_multiple_of(2);
        let fill = match (marked.contains(square), light) {
            (true, true) => "#c3d88f",
            (true, false) => "#93b25c",
            (false, true) => "#f0d9b5",
            (false, false) => "#b58863",
        };
        let _ = writeln!(
            svg,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{fill}\"/>"
        );
    }
    let files = LAYOUT.file_letters(FILES.chars(), FILE_ROW / 2.0);
    let ranks = LAYOUT.rank_numbers(LEFT / 2.0, true);
    write_labels(&mut svg, 13, files.chain(ranks));
    svg
}

/// A picture of the octagon over `frame`: a slot per playable square in
/// index order (`F1`, `G1`, ..., `K15`) holding a dwarf, a troll or the
/// `rock`, then one text slot per line of `lines` (a name and a text).
fn board(
    frame: &str,
    dwarfs: Bitboard256,
    trolls: Bitboard256,
    rock: Square,
    lines: [(&str, String); LINES],
) -> Picture {
    let mut slots: Vec<Slot> = PLAYABLE
        .squares()
        .map(|square| {
            let symbol = if dwarfs.contains(square) {
                Some("dwarf")
            } else if trolls.contains(square) {
                Some("troll")
            } else {
                (square == rock).then_some(ROCK)
            };
            let content = symbol.map_or(Content::Empty, |id| Content::Piece(id.into()));
            LAYOUT.square_slot(square_name(square), corner(square), content)
        })
        .collect();
    for (index, (name, text)) in lines.into_iter().enumerate() {
        let y = LAYOUT.board_bottom() + PAD + index as f32 * LINE;
        slots.push(Slot::new(
            name,
            LEFT,
            y,
            (BOARD, LINE - 4.0),
            Content::Text(text),
        ));
    }
    LAYOUT.picture(frame.to_string(), slots)
}

/// `count` and the noun that goes with it: `one` when it is 1, else `many`.
fn counted(count: u32, one: &str, many: &str) -> String {
    match count {
        1 => format!("1 {one}"),
        _ => format!("{count} {many}"),
    }
}

/// The ply counter and the plies since the last `event` (a capture, say).
fn ply_counters(ply: u32, quiet_plies: u32, event: &str) -> String {
    let quiet = counted(quiet_plies, "ply", "plies");
    format!("ply {ply}, {quiet} without {event}")
}

/// The picture of a classic Thud battle: the board with the Thudstone,
/// then who is to move, the score and the ply counters.
pub(super) fn classic(state: &Thud) -> Picture {
    let to_move = match state.ending {
        Some(reason) => format!("battle over ({})", reason.name()),
        None => format!("{} to move", state.to_move),
    };
    let score = format!(
        "points: dwarfs {}, trolls {}, margin {:+}",
        state.dwarfs.count(),
        4 * state.trolls.count(),
        state.margin()
    );
    let counters = ply_counters(state.ply, state.quiet_plies, "capture");
    board(
        &CLASSIC_FRAME,
        state.dwarfs,
        state.trolls,
        CENTRE,
        [("to move", to_move), ("score", score), ("plies", counters)],
    )
}

/// The picture of a game of Koom Valley Thud: the board with its goal
/// squares and the Rock, then who is to move, the pieces left and the
/// trolls around the Rock, and the ply counters.
pub(super) fn koom_valley(state: &KoomValley) -> Picture {
    let to_move = match state.ending {
        Some(reason) => match state.winner(reason) {
            Some(side) => format!("{side} win ({})", reason.name()),
            None => format!("draw ({})", reason.name()),
        },
        None => format!("{} to move", state.to_move),
    };
    let pieces = format!(
        "{}, {}, {} of {TROLLS_AROUND_ROCK} next to the Rock",
        counted(state.dwarfs.count(), "dwarf", "dwarfs"),
        counted(state.trolls.count(), "troll", "trolls"),
        state.trolls_around_rock().count()
    );
    let counters = ply_counters(state.ply, state.quiet_plies, "capture or Rock move");
    board(
        &KOOM_VALLEY_FRAME,
        state.dwarfs,
        state.trolls,
        state.rock,
        [
            ("to move", to_move),
            ("pieces", pieces),
            ("plies", counters),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::symbol_uses;
    use crate::core::{Game, Notation, Viewer};
    use crate::games::thud::{KoomValleyRules, ThudRules};
    use crate::testing::playout_states;

    /// Checks the pictures of the positions of random games from `start`:
    /// the same layout as the start's, one dwarf or troll symbol per piece
    /// of the state and one rock at `rock(state)`; returns how many
    /// positions it checked.
    fn check_playouts<G: Notation>(
        start: &G,
        armies: impl Fn(&G) -> (Bitboard256, Bitboard256),
        rock: impl Fn(&G) -> Square,
    ) -> usize {
        let layout = start.picture();
        assert_eq!(layout.slots.len(), 165 + LINES);
        let states = playout_states(start, 6, 150, 1);
        for state in &states {
            let picture = state.picture();
            assert!(picture.same_layout(&layout), "{}", state.position_text());
            let svg = picture.svg(Viewer::All);
            let (dwarfs, trolls) = armies(state);
            assert_eq!(symbol_uses(&svg, "dwarf"), dwarfs.count() as usize);
            assert_eq!(symbol_uses(&svg, "troll"), trolls.count() as usize);
            assert_eq!(symbol_uses(&svg, ROCK), 1);
            let rock_slot = picture
                .slots
                .iter()
                .find(|slot| slot.content == Content::Piece(ROCK.into()))
                .expect("a rock");
            assert_eq!(rock_slot.name, square_name(rock(state)));
        }
        states.len()
    }

    #[test]
    fn classic_pictures_draw_every_piece_on_a_board_of_fixed_layout() {
        let start = Thud::new(ThudRules::default());
        let seen = check_playouts(&start, |state| (state.dwarfs, state.trolls), |_| CENTRE);
        assert!(seen > 100, "{seen} positions");
        let picture = start.picture();
        assert_eq!(
            picture.svg(Viewer::All).matches("href=\"#dwarf\"").count(),
            32
        );
        let text = |name: &str| {
            let slot = picture.slots.iter().find(|slot| slot.name == name).unwrap();
            slot.content.clone()
        };
        assert_eq!(text("to move"), Content::Text("dwarfs to move".into()));
        assert_eq!(
            text("score"),
            Content::Text("points: dwarfs 32, trolls 32, margin +0".into())
        );
        assert_eq!(text("H8"), Content::Piece(ROCK.into()));
        assert_eq!(text("G7"), Content::Piece("troll".into()));
        assert_eq!(text("A6"), Content::Piece("dwarf".into()));
    }

    #[test]
    fn koom_valley_pictures_draw_every_piece_and_the_rock_where_it_is() {
        let start = KoomValley::new(KoomValleyRules::default());
        let seen = check_playouts(
            &start,
            |state| (state.dwarfs, state.trolls),
            |state| state.rock,
        );
        assert!(seen > 100, "{seen} positions");
        // The goal squares are marked, and only in Koom Valley Thud.
        let goal = "fill=\"#c3d88f\"";
        assert_eq!(start.picture().frame.matches(goal).count(), 2);
        let classic = Thud::new(ThudRules::default()).picture();
        assert_eq!(classic.frame.matches(goal).count(), 0);
        assert!(!classic.same_layout(&start.picture()));
    }

    #[test]
    fn squares_are_placed_as_the_notation_names_them() {
        let picture = Thud::new(ThudRules::default()).picture();
        let place = |name: &str| {
            let slot = picture.slots.iter().find(|slot| slot.name == name).unwrap();
            (slot.x, slot.y)
        };
        // Rank 1 is the top row, which starts at file F; files skip I.
        assert_eq!(place("F1"), (LEFT + 5.0 * SQUARE, LAYOUT.origin.1));
        assert_eq!(
            place("J15"),
            (LEFT + 8.0 * SQUARE, LAYOUT.origin.1 + 14.0 * SQUARE)
        );
        assert_eq!(place("A6"), (LEFT, LAYOUT.origin.1 + 5.0 * SQUARE));
        assert!(picture.slots.iter().all(|slot| slot.name != "A1"));
    }
}
