//! Text shared by the board games' position formats: a row is written as its
//! pieces' letters, with each run of empty squares given as its length.

use std::fmt;

/// Writes one row of a board as position strings spell it: each piece as its
/// letter, each run of empty squares as its length (`3dT2`).
pub(crate) fn write_row(
    f: &mut impl fmt::Write,
    cells: impl IntoIterator<Item = Option<char>>,
) -> fmt::Result {
    let mut empty_run = 0;
    for cell in cells {
        match cell {
            None => empty_run += 1,
            Some(piece) => {
                if empty_run > 0 {
                    write!(f, "{empty_run}")?;
                    empty_run = 0;
                }
                f.write_char(piece)?;
            }
        }
    }
    if empty_run > 0 {
        write!(f, "{empty_run}")?;
    }
    Ok(())
}

/// What is wrong with a row of a position string.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum RowError {
    /// A run of empty squares that starts with the digit 0.
    ZeroRun,
    /// The row spells out this many squares (saturating), not its width.
    Length(usize),
}

/// Reads one row of `width` squares written by [`write_row`]: the pieces'
/// letters with their columns, left to right. Which letters are pieces is
/// the caller's to check.
pub(crate) fn read_row(text: &str, width: usize) -> Result<Vec<(usize, char)>, RowError> {
    let mut pieces = Vec::new();
    let mut column = 0usize;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c.to_digit(10) {
            Some(0) => return Err(RowError::ZeroRun),
            Some(digit) => {
                let mut run = digit as usize;
                while let Some(next) = chars.peek().and_then(|next| next.to_digit(10)) {
                    run = run.saturating_mul(10).saturating_add(next as usize);
                    chars.next();
                }
                column = column.saturating_add(run);
            }
            None => {
                if column < width {
                    pieces.push((column, c));
                }
                column = column.saturating_add(1);
            }
        }
    }
    if column == width {
        Ok(pieces)
    } else {
        Err(RowError::Length(column))
    }
}

#[cfg(test)]
mod tests {
    use super::{RowError, read_row, write_row};

    #[test]
    fn empty_runs_are_counted_between_pieces_and_at_the_ends() {
        let mut text = String::new();
        let row = [None, None, Some('d'), Some('T'), None, Some('R'), None];
        write_row(&mut text, row).unwrap();
        assert_eq!(text, "2dT1R1");
        text.clear();
        write_row(&mut text, [None; 11]).unwrap();
        assert_eq!(text, "11");
    }

    #[test]
    fn rows_read_back_what_was_written_and_bad_rows_are_refused() {
        let mut text = String::new();
        write_row(
            &mut text,
            [None, None, Some('d'), Some('T'), None, Some('R'), None],
        )
        .unwrap();
        assert_eq!(read_row(&text, 7), Ok(vec![(2, 'd'), (3, 'T'), (5, 'R')]));
        assert_eq!(read_row("11", 11), Ok(vec![]));
        assert_eq!(read_row("3x", 5), Err(RowError::Length(4)));
        assert_eq!(read_row("4dd", 5), Err(RowError::Length(6)));
        assert_eq!(read_row("05", 5), Err(RowError::ZeroRun));
        // A run too long for any integer is too long, not wrapped around.
        assert_eq!(
            read_row("99999999999999999999999999", 11),
            Err(RowError::Length(usize::MAX))
        );
    }
}
