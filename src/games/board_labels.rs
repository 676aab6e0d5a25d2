//! The layout of the square boards' pictures, and the coordinates written
//! around them.

use crate::core::{Content, Picture, Slot};
use std::fmt::Write;

/// The width of a column of rank numbers beside a board, in SVG user units.
pub(crate) const RANK_COLUMN: f32 = 28.0;
/// The height of a row of file letters beside a board, in SVG user units.
pub(crate) const FILE_ROW: f32 = 24.0;
/// The height of the line under a board that says who is to move, in SVG
/// user units.
pub(crate) const STATUS: f32 = 32.0;
/// The room between a board and the edge of its picture where nothing is
/// written, in SVG user units.
pub(crate) const PAD: f32 = 12.0;

/// Where a picture puts a board of squares, in SVG user units: the side of
/// a square, the board's columns and rows, and the room left around it
/// for coordinates and lines of text.
#[derive(Clone, Copy)]
pub(crate) struct BoardLayout {
    /// The side of a square.
    pub(crate) square: f32,
    /// The squares across and down the board.
    pub(crate) size: (u8, u8),
    /// The room left of and above the board: its top left corner.
    pub(crate) origin: (f32, f32),
    /// The room right of and under the board.
    pub(crate) room_after: (f32, f32),
}

impl BoardLayout {
    /// The width of the board.
    pub(crate) const fn board_width(self) -> f32 {
        self.size.0 as f32 * self.square
    }

    /// The height of the board.
    pub(crate) const fn board_height(self) -> f32 {
        self.size.1 as f32 * self.square
    }

    /// The y of the board's lower edge.
    pub(crate) const fn board_bottom(self) -> f32 {
        self.origin.1 + self.board_height()
    }

    /// The width of the picture.
    pub(crate) const fn width(self) -> f32 {
        self.origin.0 + self.board_width() + self.room_after.0
    }

    /// The height of the picture.
    pub(crate) const fn height(self) -> f32 {
        self.origin.1 + self.board_height() + self.room_after.1
    }

    /// The top left corner of the square in `column` (0 on the left) and
    /// `row` (0 at the top).
    pub(crate) fn corner(self, column: u8, row: u8) -> (f32, f32) {
        (
            self.origin.0 + f32::from(column) * self.square,
            self.origin.1 + f32::from(row) * self.square,
        )
    }

    /// The x of the middle of `column`, where its file letter is centred.
    pub(crate) fn column_centre(self, column: usize) -> f32 {
        self.origin.0 + (column as f32 + 0.5) * self.square
    }

    /// The y of the middle of `row`, where its rank number is centred.
    pub(crate) fn row_centre(self, row: u8) -> f32 {
        self.origin.1 + (f32::from(row) + 0.5) * self.square
    }

    /// The file letters `letters`, one per column from the left, each
    /// centred over its column at height `y`.
    pub(crate) fn file_letters(
        self,
        letters: impl Iterator<Item = char>,
        y: f32,
    ) -> impl Iterator<Item = (String, f32, f32)> {
        letters
            .enumerate()
            .map(move |(column, letter)| (letter.to_string(), self.column_centre(column), y))
    }

    /// The rank numbers, rank 1 first, each centred at `x` on its row:
    /// rank 1 on the bottom row, or on the top row if `one_on_top`.
    pub(crate) fn rank_numbers(
        self,
        x: f32,
        one_on_top: bool,
    ) -> impl Iterator<Item = (String, f32, f32)> {
        (0..self.size.1).map(move |rank| {
            let row = if one_on_top {
                rank
            } else {
                self.size.1 - 1 - rank
            };
            ((rank + 1).to_string(), x, self.row_centre(row))
        })
    }

    /// Starts a frame with `symbols` and the background of the whole
    /// picture.
    pub(crate) fn frame_start(self, symbols: &str) -> String {
        let mut svg = String::from(symbols);
        // Writing to a String cannot fail.
        let _ = writeln!(
            svg,
            "<rect width=\"{}\" height=\"{}\" fill=\"#f4efe4\"/>",
            self.width(),
            self.height()
        );
        svg
    }

    /// The slot of a square whose top left corner is `corner`.
    pub(crate) fn square_slot(
        &self,
        name: impl Into<String>,
        corner: (f32, f32),
        content: Content,
    ) -> Slot {
        Slot::new(
            name,
            corner.0,
            corner.1,
            (self.square, self.square),
            content,
        )
    }

    /// The slot of the line that says who is to move (`text`): under the
    /// board and its file letters `file_row` high, as wide as the board.
    pub(crate) fn status_slot(self, file_row: f32, text: String) -> Slot {
        Slot::new(
            "to move",
            self.origin.0,
            self.board_bottom() + file_row,
            (self.board_width(), STATUS - 4.0),
            Content::Text(text),
        )
    }

    /// The picture of this size made of `frame` and `slots`.
    pub(crate) fn picture(self, frame: String, slots: Vec<Slot>) -> Picture {
        Picture {
            width: self.width() as u32,
            height: self.height() as u32,
            frame,
            slots,
        }
    }
}

/// Writes `labels` (each a text and the point it is centred on) in one
/// group of SVG text of the given size, in the boards' label colour.
pub(crate) fn write_labels(
    svg: &mut String,
    font_size: u32,
    labels: impl IntoIterator<Item = (String, f32, f32)>,
) {
    // Writing to a String cannot fail.
    let _ = writeln!(
        svg,
        "<g font-size=\"{font_size}\" fill=\"#5a4a30\" text-anchor=\"middle\" \
         dominant-baseline=\"central\">"
    );
    for (text, x, y) in labels {
        let _ = writeln!(svg, "<text x=\"{x}\" y=\"{y}\">{text}</text>");
    }
    svg.push_str("</g>");
}
