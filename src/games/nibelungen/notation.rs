//! Text: positions (see [`super::NibelungenSetup`]), moves and the diagram.

use super::board::{CASTLE_POINTS, CASTLES, ROWS, bit, parse_point, point, point_name, points_of};
use super::moves::{NibelungenMove, Pair};
use super::options::NibelungenRules;
use super::setup::NibelungenSetup;
use super::state::{Nibelungen, Side};
use crate::core::{Game, Notation, ParseError, Picture};

impl Notation for Nibelungen {
    /// `G,K,H,S,B:TOD:NO[:X][@N]`, e.g. the start `33,44,43,30,10:SB:-`.
    type Setup = NibelungenSetup;

    /// The ply counter starts at 0. A board that meets a winning condition
    /// is a finished game.
    fn from_setup(setup: &NibelungenSetup, rules: NibelungenRules) -> Result<Self, ParseError> {
        setup
            .validate(&rules)
            .map_err(|problem| ParseError::new("position", &setup.to_string(), problem))?;
        Ok(Nibelungen::from_parts(
            rules,
            setup.points,
            setup.screens,
            setup.next,
            setup.round,
        ))
    }

    fn setup(&self) -> NibelungenSetup {
        NibelungenSetup {
            points: self.points,
            screens: self.screens,
            next: self.next,
            round: self.round,
        }
    }

    /// A pair's letters (`GK`) or a move's end point (`43`).
    fn move_text(&self, mv: NibelungenMove) -> String {
        mv.to_string()
    }

    /// Between rounds, a pair any player could choose (whose choice it is,
    /// the joint move decides); during the movement phase, the end point of
    /// a legal move of the character to move.
    fn parse_move(&self, text: &str) -> Result<NibelungenMove, ParseError> {
        let text = text.trim();
        let bad = |problem: String| ParseError::new("move", text, problem);
        if let Some(reason) = self.ending() {
            return Err(bad(format!("the game is over ({})", reason.name())));
        }
        let Some(character) = self.next_to_move() else {
            return Pair::parse(text)
                .map(NibelungenMove::Choose)
                .map_err(|problem| bad(format!("the players choose pairs here: {problem}")));
        };
        let point = parse_point(text).ok_or_else(|| {
            bad(format!(
                "{character} is to move: a move is the point rk where it ends"
            ))
        })?;
        let mv = NibelungenMove::MoveTo(point);
        self.check_move(mv)
            .map_err(|illegal| bad(illegal.reason().to_string()))?;
        Ok(mv)
    }

    /// The triangle from the apex, each point showing the letter of the
    /// character on it, or its name when empty (castle points marked `*`),
    /// under a line saying what happens next.
    fn diagram(&self) -> String {
        let screen = |side: Side| {
            self.screen(side)
                .map_or("-".to_string(), |pair| pair.to_string())
        };
        let mut out = format!(
            "round {}, in front of the screens: Tod {}, NO {}\n",
            self.round(),
            screen(Side::Tod),
            screen(Side::No)
        );
        for row in 0..ROWS {
            out.push_str(&"  ".repeat(usize::from(ROWS - 1 - row)));
            let cells: Vec<String> = (0..=row)
                .map(|k| {
                    let here = point(row, k);
                    let marker = if CASTLE_POINTS & bit(here) != 0 {
                        '*'
                    } else {
                        ' '
                    };
                    match self.character_on(here) {
                        Some(character) => format!(" {}{marker}", character.letter()),
                        None => format!("{}{marker}", point_name(here)),
                    }
                })
                .collect();
            out.push_str(cells.join(" ").trim_end());
            out.push('\n');
        }
        let castles: Vec<String> = CASTLES
            .iter()
            .map(|castle| {
                let names: Vec<String> = points_of(castle.points).map(point_name).collect();
                format!("{} {}", castle.name, names.join(" "))
            })
            .collect();
        out.push_str(&format!("castles (*): {}\n", castles.join(", ")));
        match (self.ending(), self.next_to_move()) {
            (Some(reason), _) => out.push_str(&format!("game over: {}\n", reason.name())),
            (None, Some(character)) => {
                out.push_str(&format!(
                    "{character} ({}) on {} to move, chosen by {}\n",
                    character.letter(),
                    point_name(self.point_of(character)),
                    self.chooser(character)
                ));
            }
            (None, None) => out.push_str("both players choose a pair\n"),
        }
        out
    }

    /// The triangle with the characters, the two screens, the round and
    /// who plays next (see `picture.rs`).
    fn picture(&self) -> Picture {
        self.drawn()
    }

    fn default_openings() -> Option<&'static str> {
        Some(include_str!("../../../openings/nibelungen.txt"))
    }
}
