//! Text shared by the board games' position formats.

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

#[cfg(test)]
mod tests {
    use super::write_row;

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
}
