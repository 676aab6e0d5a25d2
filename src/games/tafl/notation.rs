//! Text forms: positions (see [`TaflSetup`]), moves as game records write
//! them (`d1-d3`, captures appended as `xd2`), and diagrams.

use super::board::{parse_square, square_name};
use super::moves::TaflMove;
use super::options::TaflRules;
use super::rules_string::Region;
use super::setup::TaflSetup;
use super::state::Tafl;
use crate::core::{Game, MoveList, Notation, ParseError, Picture};

/// A move as written: its squares and the captures it names, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenMove {
    /// The square the piece leaves.
    pub from: usize,
    /// The square it moves to.
    pub to: usize,
    /// The captured squares written after it (`xSQ`), in increasing order
    /// and each once, or `None` if the text names none.
    pub captures: Option<Vec<usize>>,
}

impl WrittenMove {
    /// Reads `from-to` with any captures `xSQ` (a square may be written
    /// twice, as some records do) on a board of side `dim`.
    ///
    /// # Errors
    /// Text that is not of that form.
    pub fn parse(dim: usize, text: &str) -> Result<WrittenMove, ParseError> {
        let bad = |problem: String| ParseError::new("move", text, problem);
        let mut parts = text.trim().split('x');
        let squares = parts.next().unwrap_or_default();
        let (from, to) = squares
            .split_once('-')
            .ok_or_else(|| bad("a move is written from-to, e.g. d1-d3".into()))?;
        let square =
            |name: &str| parse_square(dim, name).map_err(|error| bad(error.problem().into()));
        let mut captures = Vec::new();
        let mut written = false;
        for captured in parts {
            written = true;
            captures.push(square(captured)?);
        }
        captures.sort_unstable();
        captures.dedup();
        Ok(WrittenMove {
            from: square(from)?,
            to: square(to)?,
            captures: written.then_some(captures),
        })
    }
}

impl Tafl {
    /// The captured squares as a chain of `xSQ`.
    fn capture_suffix(&self, squares: &[usize]) -> String {
        squares
            .iter()
            .map(|&square| format!("x{}", self.square_name(square)))
            .collect()
    }
}

impl Notation for Tafl {
    type Setup = TaflSetup;

    /// The game counts as just started: the ply counter is zero and there
    /// is no repetition history.
    fn from_setup(setup: &TaflSetup, rules: TaflRules) -> Result<Self, ParseError> {
        setup.validate(&rules)?;
        Ok(Tafl::from_valid_setup(setup, rules))
    }

    fn setup(&self) -> TaflSetup {
        self.to_setup()
    }

    fn move_text(&self, mv: TaflMove) -> String {
        let captures = self.captures_of(mv);
        format!(
            "{}-{}{}",
            self.square_name(mv.from.into()),
            self.square_name(mv.to.into()),
            self.capture_suffix(&captures.squares)
        )
    }

    /// Reads `from-to`, with or without its captures; captures that are
    /// given must be exactly those the move makes.
    fn parse_move(&self, text: &str) -> Result<TaflMove, ParseError> {
        let written = WrittenMove::parse(self.dim(), text)?;
        let mv = TaflMove::new(written.from, written.to);
        self.check_move(mv)
            .map_err(|illegal| ParseError::new("move", text, illegal.reason()))?;
        if let Some(named) = written.captures {
            let captured = self.captures_of(mv).squares;
            if captured != named {
                let actual = match self.capture_suffix(&captured) {
                    none if none.is_empty() => "nothing".to_string(),
                    some => some,
                };
                let name = format!(
                    "{}-{}",
                    self.square_name(mv.from.into()),
                    self.square_name(mv.to.into())
                );
                return Err(ParseError::new(
                    "move",
                    text,
                    format!("{name} captures {actual}"),
                ));
            }
        }
        Ok(mv)
    }

    /// The board with the top rank first: pieces by their letters, `+` on
    /// an empty corner or centre square, `#` on an empty fortress square.
    fn diagram(&self) -> String {
        let dim = self.dim();
        let string = self.rules.rules_string();
        let in_region =
            |region: Region, index: usize| string.squares[region as usize].contains(&index);
        let mut out = String::new();
        for rank in (0..dim).rev() {
            out.push_str(&format!("{:>2} ", rank + 1));
            for file in 0..dim {
                let index = rank * dim + file;
                let symbol = match self.piece_at(index) {
                    Some(piece) => piece.letter(),
                    None if in_region(Region::Corner, index)
                        || in_region(Region::Centre, index) =>
                    {
                        '+'
                    }
                    None if in_region(Region::AttackerFortress, index)
                        || in_region(Region::DefenderFortress, index) =>
                    {
                        '#'
                    }
                    None => '.',
                };
                out.push(' ');
                out.push(symbol);
            }
            out.push('\n');
        }
        out.push_str("   ");
        for file in 0..dim {
            out.push(' ');
            out.push(square_name(dim, file).chars().next().unwrap_or('?'));
        }
        out.push('\n');
        match self.ending {
            Some(reason) => {
                let result = match self.winner(reason) {
                    Some(side) => format!("{side} win"),
                    None => "draw".to_string(),
                };
                out.push_str(&format!("game over: {result} ({})\n", reason.name()));
            }
            None => {
                let mut moves = MoveList::new();
                self.legal_moves(&mut moves);
                let again = match self.berserk_square() {
                    Some(square) => {
                        format!(", the piece on {} moves again", self.square_name(square))
                    }
                    None => String::new(),
                };
                out.push_str(&format!(
                    "{} to move{again}, {} legal moves, ply {}\n",
                    self.to_move,
                    moves.len(),
                    self.ply
                ));
            }
        }
        out
    }

    fn picture(&self) -> Picture {
        super::picture::picture(self)
    }

    /// The built-in variant's own set (`openings/<variant>.txt`); none for
    /// a rules string of one's own.
    fn openings_for(rules: &TaflRules) -> Option<&'static str> {
        Some(match rules.variant_name()? {
            "brandub" => include_str!("../../../openings/brandub.txt"),
            "magpie" => include_str!("../../../openings/magpie.txt"),
            "tablut" => include_str!("../../../openings/tablut.txt"),
            "foteviken-tablut" => include_str!("../../../openings/foteviken-tablut.txt"),
            "sea-battle" => include_str!("../../../openings/sea-battle.txt"),
            "fetlar" => include_str!("../../../openings/fetlar.txt"),
            "copenhagen" => include_str!("../../../openings/copenhagen.txt"),
            "copenhagen-relaxed" => include_str!("../../../openings/copenhagen-relaxed.txt"),
            "berserk" => include_str!("../../../openings/berserk.txt"),
            "tawlbwrdd" => include_str!("../../../openings/tawlbwrdd.txt"),
            "computer-fetlar" => include_str!("../../../openings/computer-fetlar.txt"),
            "sea-battle-13" => include_str!("../../../openings/sea-battle-13.txt"),
            "tablut-15" => include_str!("../../../openings/tablut-15.txt"),
            "alea-evangelii" => include_str!("../../../openings/alea-evangelii.txt"),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_moves_read_their_captures_once_each() {
        let mv = WrittenMove::parse(11, "e7-k7xk6xk6").unwrap();
        assert_eq!(
            (
                square_name(11, mv.from).as_str(),
                square_name(11, mv.to).as_str()
            ),
            ("e7", "k7")
        );
        assert_eq!(mv.captures.unwrap().len(), 1);
        assert_eq!(WrittenMove::parse(19, "s19-s1").unwrap().captures, None);
        for bad in ["e7k7", "e7-", "e7-k7x", "e7-z7", "-", "a1-a12"] {
            assert!(WrittenMove::parse(11, bad).is_err(), "{bad}");
        }
    }
}
