//! Positions as written, before they are checked against the rules: the
//! 10-file FEN with its Slurk field (and the 8-file chess FEN, placed on
//! files `b`..`i`), read into an unvalidated setup; its validation and the
//! start position.

use super::board::{
    CASTLINGS, CHESSBOARD, FILES, GRID, Kind, PAWN_ATTACKS, Piece, RANKS, SLURK_SLOTS, SLURKS,
    Side, parse_square, slurk_slot, square_at, square_name,
};
use super::options::StealthChessRules;
use super::state::{SlurkMark, StealthChess};
use crate::bitboard::{Bitboard128, Square};
use crate::core::{ParseError, RepetitionHistory, Setup};
use crate::games::board_text::{RowError, read_row, write_row};
use std::fmt;
use std::str::FromStr;

/// The start position as the rules page writes it.
pub const START_POSITION: &str = "arnbqkbnra/1pppppppp1/10/10/10/10/1PPPPPPPP1/ARNBQKBNRA w KQkq - 0 1 a1:a1:0,j1:j1:0,a8:a8:0,j8:j8:0";

/// A position as written, before it is checked against the rules.
///
/// Text is read into a setup first ([`FromStr`]), then validated by
/// [`Notation::from_setup`](crate::core::Notation::from_setup), so malformed text and impossible positions
/// both give a [`ParseError`] that says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StealthChessSetup {
    /// The piece on each square, by square index.
    pub board: [Option<Piece>; 80],
    /// The side to move.
    pub to_move: Side,
    /// The castling rights, as the bits of `KQkq`.
    pub castling: u8,
    /// The square a pawn that just made a double step passed over, if any.
    pub en_passant: Option<Square>,
    /// Plies since the last capture or pawn move (the fifty-move rule counts them).
    pub halfmove_clock: u16,
    /// The number of the full move, from 1, counted up after Black moves.
    pub fullmove: u32,
    /// The Slurk state listed for each Slurk square (by slot).
    pub slurk: [Option<SlurkMark>; SLURK_SLOTS],
}

/// The back rank of each side from file `a` to file `j`.
const BACK_RANK: [Kind; 10] = [
    Kind::Assassin,
    Kind::Rook,
    Kind::Knight,
    Kind::Bishop,
    Kind::Queen,
    Kind::King,
    Kind::Bishop,
    Kind::Knight,
    Kind::Rook,
    Kind::Assassin,
];

/// The start position, built from constants; it prints as
/// [`START_POSITION`].
const START: StealthChessSetup = start_setup();

const fn start_setup() -> StealthChessSetup {
    let mut board = [None; 80];
    let mut slurk = [None; SLURK_SLOTS];
    let mut file = 0;
    while file < FILES as i32 {
        let kind = BACK_RANK[file as usize];
        let (white, black) = (square_at(file, 0), square_at(file, 7));
        board[white.index()] = Some(Piece {
            side: Side::White,
            kind,
        });
        board[black.index()] = Some(Piece {
            side: Side::Black,
            kind,
        });
        if file > 0 && file < FILES as i32 - 1 {
            board[square_at(file, 1).index()] = Some(Piece {
                side: Side::White,
                kind: Kind::Pawn,
            });
            board[square_at(file, 6).index()] = Some(Piece {
                side: Side::Black,
                kind: Kind::Pawn,
            });
        } else {
            slurk[slurk_slot(white)] = Some(SlurkMark {
                entry: white,
                count: 0,
            });
            slurk[slurk_slot(black)] = Some(SlurkMark {
                entry: black,
                count: 0,
            });
        }
        file += 1;
    }
    StealthChessSetup {
        board,
        to_move: Side::White,
        castling: 0b1111,
        en_passant: None,
        halfmove_clock: 0,
        fullmove: 1,
        slurk,
    }
}

impl StealthChessSetup {
    /// The squares holding pieces that match `keep`.
    fn squares_where(&self, keep: impl Fn(Piece) -> bool) -> Bitboard128 {
        (0..GRID.len())
            .filter(|&index| self.board[index].is_some_and(&keep))
            .map(|index| Square::new(index as u8))
            .collect()
    }

    /// Checks what the rules require of any position (all but check, which
    /// [`Notation::from_setup`](crate::core::Notation::from_setup) tests on the position).
    pub fn validate(&self) -> Result<(), ParseError> {
        let text = self.to_string();
        let bad = |problem: String| Err(ParseError::new("position", &text, problem));
        for side in Side::BOTH {
            let kings = self.squares_where(|piece| {
                piece
                    == Piece {
                        side,
                        kind: Kind::King,
                    }
            });
            if kings.count() != 1 {
                return bad(format!(
                    "{side} has {} kings; each side has exactly one",
                    kings.count()
                ));
            }
        }
        let not_assassins = self.squares_where(|piece| piece.kind != Kind::Assassin);
        if let Some(square) = (not_assassins & SLURKS).lowest() {
            return bad(format!(
                "{} is a Slurk square, where only an Assassin may stand",
                square_name(square)
            ));
        }
        let pawns = self.squares_where(|piece| piece.kind == Kind::Pawn);
        if let Some(square) = pawns
            .squares()
            .find(|&square| GRID.rank(square) == 0 || GRID.rank(square) == RANKS - 1)
        {
            return bad(format!(
                "a pawn on {}, the first or last rank",
                square_name(square)
            ));
        }
        self.validate_slurks().or_else(bad)?;
        self.validate_castling().or_else(bad)?;
        self.validate_en_passant().or_else(bad)?;
        if self.fullmove == 0 {
            return bad("the move number starts at 1".into());
        }
        Ok(())
    }

    /// Every Assassin in a Slurk is listed once, with an entry point on its
    /// file that its count of Slurk moves can have brought it from.
    fn validate_slurks(&self) -> Result<(), String> {
        let assassins = self.squares_where(|piece| piece.kind == Kind::Assassin);
        for square in SLURKS.squares() {
            let listed = self.slurk[slurk_slot(square)];
            let name = square_name(square);
            match (assassins.contains(square), listed) {
                (true, None) => {
                    return Err(format!(
                        "the Assassin on {name} is in a Slurk, but the Slurk field does not list it"
                    ));
                }
                (false, Some(_)) => {
                    return Err(format!(
                        "the Slurk field lists {name}, where no Assassin stands"
                    ));
                }
                (true, Some(mark)) => {
                    if GRID.file(mark.entry) != GRID.file(square) || !SLURKS.contains(mark.entry) {
                        return Err(format!(
                            "the Assassin on {name} entered at {}, which is not on its Slurk",
                            square_name(mark.entry)
                        ));
                    }
                    let distance = u16::from(GRID.rank(mark.entry).abs_diff(GRID.rank(square)));
                    if mark.count < distance || (mark.count - distance) % 2 != 0 {
                        return Err(format!(
                            "the Assassin on {name} cannot have come from {} in {} Slurk moves",
                            square_name(mark.entry),
                            mark.count
                        ));
                    }
                }
                (false, None) => {}
            }
        }
        Ok(())
    }

    /// Each castling right has its king and rook on their start squares.
    fn validate_castling(&self) -> Result<(), String> {
        for castling in CASTLINGS {
            if self.castling & castling.right == 0 {
                continue;
            }
            let side = if castling.right & 0b11 != 0 {
                Side::White
            } else {
                Side::Black
            };
            let king = Some(Piece {
                side,
                kind: Kind::King,
            });
            let rook = Some(Piece {
                side,
                kind: Kind::Rook,
            });
            if self.board[castling.king_from.index()] != king
                || self.board[castling.rook_from.index()] != rook
            {
                return Err(format!(
                    "castling right {} needs the {side} king on {} and a rook on {}",
                    castling.letter,
                    square_name(castling.king_from),
                    square_name(castling.rook_from)
                ));
            }
        }
        Ok(())
    }

    /// An en passant square lies just behind a pawn of the side not to
    /// move that has just made its double step.
    fn validate_en_passant(&self) -> Result<(), String> {
        let Some(square) = self.en_passant else {
            return Ok(());
        };
        let (rank, forward) = match self.to_move {
            Side::White => (5, -1),
            Side::Black => (2, 1),
        };
        let name = square_name(square);
        let file = GRID.file(square) as i32;
        let pawn = Some(Piece {
            side: self.to_move.opponent(),
            kind: Kind::Pawn,
        });
        let pushed = GRID.square(file, rank + forward);
        let origin = GRID.square(file, rank - forward);
        if !CHESSBOARD.contains(square)
            || GRID.rank(square) as i32 != rank
            || self.board[square.index()].is_some()
            || pushed.is_none_or(|pushed| self.board[pushed.index()] != pawn)
            || origin.is_none_or(|origin| self.board[origin.index()].is_some())
        {
            return Err(format!(
                "en passant on {name} needs a {} pawn just past it after a double step, with {name} and the square behind it empty",
                self.to_move.opponent()
            ));
        }
        Ok(())
    }
}

impl Setup for StealthChessSetup {}

impl FromStr for StealthChessSetup {
    type Err = ParseError;

    /// Reads a 10-file FEN: the board (rank 8 first, files `a`..`j`,
    /// Assassins `A`/`a`), the side to move (`w` or `b`), castling rights
    /// (`KQkq` or `-`), the en passant square, the halfmove clock, the move
    /// number and the Slurk field (`square:entry:count,...` or `-`). The
    /// clocks may be left out together; the Slurk field may be left out
    /// when no Assassin stands in a Slurk.
    ///
    /// An 8-file chess FEN is placed on files `b`..`i` with no Assassins:
    /// its en passant square moves with it (`e3` becomes `f3`).
    fn from_str(text: &str) -> Result<Self, ParseError> {
        let bad = |problem: String| ParseError::new("position", text, problem);
        let fields: Vec<&str> = text.split_whitespace().collect();
        if !matches!(fields.len(), 4 | 6 | 7) {
            return Err(bad(format!(
                "{} fields; a position has the board, the side to move, castling, en passant, \
                 optionally the two clocks, and the Slurk field",
                fields.len()
            )));
        }
        let (board, chess_board) = read_board(fields[0]).map_err(&bad)?;
        let to_move = match fields[1] {
            "w" => Side::White,
            "b" => Side::Black,
            other => return Err(bad(format!("`{other}` is not a side to move (w or b)"))),
        };
        let castling = read_castling(fields[2]).map_err(&bad)?;
        let en_passant = match fields[3] {
            "-" => None,
            name => Some(read_en_passant(name, chess_board).map_err(&bad)?),
        };
        let (halfmove_clock, fullmove) = if fields.len() >= 6 {
            let halfmove = fields[4].parse::<u16>().map_err(|_| {
                bad(format!(
                    "the halfmove clock `{}` is not a number from 0 to {}",
                    fields[4],
                    u16::MAX
                ))
            })?;
            let fullmove = fields[5]
                .parse::<u32>()
                .map_err(|_| bad(format!("the move number `{}` is not a number", fields[5])))?;
            (halfmove, fullmove)
        } else {
            (0, 1)
        };
        let slurk = match fields.get(6) {
            Some(_) if chess_board => {
                return Err(bad(
                    "an 8-file chess position has no Slurks and no Slurk field".into(),
                ));
            }
            Some(field) => read_slurk_field(field).map_err(&bad)?,
            None => [None; SLURK_SLOTS],
        };
        Ok(StealthChessSetup {
            board,
            to_move,
            castling,
            en_passant,
            halfmove_clock,
            fullmove,
            slurk,
        })
    }
}

/// Reads the board field, of 10 files or of 8 (placed on files `b`..`i`);
/// says which.
fn read_board(field: &str) -> Result<([Option<Piece>; 80], bool), String> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != RANKS as usize {
        return Err(format!("{} ranks, but the board has {RANKS}", ranks.len()));
    }
    let width = match read_row(ranks[0], FILES as usize) {
        Ok(_) => FILES as usize,
        Err(_) if read_row(ranks[0], 8).is_ok() => 8,
        Err(_) => {
            return Err("rank 8 has neither 10 squares nor the 8 of a chess position".to_string());
        }
    };
    let chess_board = width == 8;
    let mut board = [None; 80];
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank = RANKS as usize - 1 - row;
        let pieces = read_row(rank_text, width).map_err(|error| match error {
            RowError::ZeroRun => format!("rank {}: a run of 0 empty squares", rank + 1),
            RowError::Length(_) => format!("rank {} does not have {width} squares", rank + 1),
        })?;
        for (column, letter) in pieces {
            let piece = Piece::from_letter(letter).ok_or_else(|| {
                format!("`{letter}` is not a piece (K Q R B N P A for White, lower case for Black)")
            })?;
            if chess_board && piece.kind == Kind::Assassin {
                return Err("an 8-file chess position has no Assassins".to_string());
            }
            let file = column + usize::from(chess_board);
            board[square_at(file as i32, rank as i32).index()] = Some(piece);
        }
    }
    Ok((board, chess_board))
}

fn read_castling(field: &str) -> Result<u8, String> {
    if field == "-" {
        return Ok(0);
    }
    let mut rights = 0;
    for letter in field.chars() {
        let castling = CASTLINGS
            .iter()
            .find(|castling| castling.letter == letter)
            .ok_or_else(|| format!("`{letter}` is not a castling right (K Q k q, or -)"))?;
        if rights & castling.right != 0 {
            return Err(format!("castling right {letter} is given twice"));
        }
        rights |= castling.right;
    }
    Ok(rights)
}

/// Reads an en passant square; on an 8-file board `a`..`h` are files
/// `b`..`i`.
fn read_en_passant(name: &str, chess_board: bool) -> Result<Square, String> {
    let square = if chess_board {
        let mut chars = name.chars();
        let file = chars
            .next()
            .filter(|file| ('a'..='h').contains(file))
            .ok_or_else(|| format!("`{name}` is not a square of a chess board"))?;
        let shifted = format!("{}{}", (file as u8 + 1) as char, chars.as_str());
        parse_square(&shifted).map_err(|error| error.problem().to_string())?
    } else {
        parse_square(name).map_err(|error| error.problem().to_string())?
    };
    Ok(square)
}

/// Reads the Slurk field: `square:entry:count` per Assassin in a Slurk.
fn read_slurk_field(field: &str) -> Result<[Option<SlurkMark>; SLURK_SLOTS], String> {
    let mut slurk = [None; SLURK_SLOTS];
    if field == "-" {
        return Ok(slurk);
    }
    for item in field.split(',') {
        let parts: Vec<&str> = item.split(':').collect();
        let [square, entry, count] = parts[..] else {
            return Err(format!(
                "`{item}` in the Slurk field is not square:entry:count"
            ));
        };
        let square = parse_square(square).map_err(|error| error.to_string())?;
        let entry = parse_square(entry).map_err(|error| error.to_string())?;
        let count = count.parse::<u16>().map_err(|_| {
            format!(
                "the Slurk count `{count}` is not a number from 0 to {}",
                u16::MAX
            )
        })?;
        if !SLURKS.contains(square) {
            return Err(format!(
                "the Slurk field lists {}, which is not a Slurk square",
                square_name(square)
            ));
        }
        let listed = &mut slurk[slurk_slot(square)];
        if listed.is_some() {
            return Err(format!(
                "the Slurk field lists {} twice",
                square_name(square)
            ));
        }
        *listed = Some(SlurkMark { entry, count });
    }
    Ok(slurk)
}

impl fmt::Display for StealthChessSetup {
    /// The 10-file FEN with all seven fields.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..RANKS as i32).rev() {
            write_row(
                f,
                (0..FILES as i32)
                    .map(|file| self.board[square_at(file, rank).index()].map(Piece::letter)),
            )?;
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        let side = match self.to_move {
            Side::White => 'w',
            Side::Black => 'b',
        };
        let castling: String = CASTLINGS
            .iter()
            .filter(|castling| self.castling & castling.right != 0)
            .map(|castling| castling.letter)
            .collect();
        let castling = if castling.is_empty() {
            "-".into()
        } else {
            castling
        };
        let en_passant = self.en_passant.map_or("-".to_string(), square_name);
        let marks: Vec<String> = SLURKS
            .squares()
            .filter_map(|square| {
                self.slurk[slurk_slot(square)].map(|mark| {
                    format!(
                        "{}:{}:{}",
                        square_name(square),
                        square_name(mark.entry),
                        mark.count
                    )
                })
            })
            .collect();
        let marks = if marks.is_empty() {
            "-".to_string()
        } else {
            marks.join(",")
        };
        write!(
            f,
            " {side} {castling} {en_passant} {} {} {marks}",
            self.halfmove_clock, self.fullmove
        )
    }
}

impl StealthChess {
    /// The standard starting position, White to move.
    pub fn start(rules: StealthChessRules) -> StealthChess {
        StealthChess::from_valid_setup(&START, rules)
    }

    /// The state of a setup that passes [`StealthChessSetup::validate`].
    pub(super) fn from_valid_setup(
        setup: &StealthChessSetup,
        rules: StealthChessRules,
    ) -> StealthChess {
        let mut state = StealthChess {
            kinds: [Bitboard128::EMPTY; 7],
            sides: [Bitboard128::EMPTY; 2],
            slurk: [SlurkMark::default(); SLURK_SLOTS],
            to_move: setup.to_move,
            castling: setup.castling,
            en_passant: None,
            halfmove_clock: setup.halfmove_clock,
            fullmove: setup.fullmove,
            ply: 0,
            hash: 0,
            rules,
            draw: None,
            history: RepetitionHistory::new(),
        };
        for (index, piece) in setup.board.iter().enumerate() {
            if let Some(piece) = piece {
                let square = Square::new(index as u8);
                state.sides[piece.side.player()] = state.sides[piece.side.player()].with(square);
                state.kinds[piece.kind.index()] = state.kinds[piece.kind.index()].with(square);
            }
        }
        for (slot, mark) in setup.slurk.iter().enumerate() {
            state.slurk[slot] = mark.unwrap_or_default();
        }
        // The square is kept only when a pawn could capture there, as
        // after a move.
        state.en_passant = setup.en_passant.filter(|&square| {
            (PAWN_ATTACKS[setup.to_move.opponent().player()][square.index()]
                & state.pieces(setup.to_move, Kind::Pawn))
            .any()
        });
        state.hash = state.hash_from_scratch();
        state.remember_position(false);
        state.draw = state.draw_now();
        state
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_built_from_constants_prints_as_documented() {
        assert!(START.validate().is_ok());
        let setup: StealthChessSetup = START_POSITION.parse().unwrap();
        assert_eq!(setup, START);
        crate::games::check_start_constants::<StealthChess>(
            &START,
            START_POSITION,
            StealthChessRules::default(),
        );
    }

    #[test]
    fn an_eight_file_position_lands_on_files_b_to_i() {
        let setup: StealthChessSetup =
            "rnbqkbnr/pppp1ppp/8/8/4pP2/8/PPPPP1PP/RNBQKBNR b KQkq f3 0 3"
                .parse()
                .unwrap();
        assert_eq!(setup.en_passant, Some(parse_square("g3").unwrap()));
        assert_eq!(
            setup.board[parse_square("f1").unwrap().index()],
            Some(Piece {
                side: Side::White,
                kind: Kind::King
            })
        );
        assert!(setup.board[parse_square("a1").unwrap().index()].is_none());
    }
}
