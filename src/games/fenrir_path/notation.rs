//! Text forms: positions (see [`FenrirPathSetup`](super::FenrirPathSetup)),
//! moves such as `R7`, and diagrams.

use super::board::{Colour, MAX_COLOURS, ODIN, tile_bit};
use super::moves::FenrirPathMove;
use super::options::{FenrirPathRules, TurnOrder};
use super::setup::{DealtSetup, FenrirPathSetup};
use super::state::{EndReason, FenrirPath, NOBODY};
use crate::core::{Game, MoveList, Notation, ParseError, Picture};

impl Notation for FenrirPath {
    /// The deal and every field, e.g.
    /// `RRRRRRBBBBBBGGGGGGYYYYYY:RBGY gods=R5,B10,G15,Y20 wolf=24 collected=- last=-`.
    /// Before the deal there is no position, and the text is `undealt`.
    type Setup = FenrirPathSetup;

    /// A validated state from an unvalidated setup; the ply counter starts at 0.
    fn from_setup(setup: &FenrirPathSetup, rules: FenrirPathRules) -> Result<Self, ParseError> {
        let setup = match setup {
            FenrirPathSetup::Undealt => return Ok(FenrirPath::new(rules)),
            FenrirPathSetup::Dealt(setup) => setup,
        };
        setup.validate(&rules)?;
        let mut colour_tiles = [0; MAX_COLOURS];
        for (index, colour) in setup.deal.tiles.iter().enumerate() {
            colour_tiles[colour.index()] |= tile_bit(index as u8 + 1);
        }
        let mut start_order = Colour::ALL;
        start_order[..setup.deal.gods.len()].copy_from_slice(&setup.deal.gods);
        let mut state = FenrirPath {
            rules,
            dealt: true,
            colour_tiles,
            start_order,
            gods: setup.god_tiles(&rules),
            wolf: setup.wolf_tile(&rules),
            collected: setup.collected,
            last_mover: setup
                .last_mover
                .map_or(NOBODY, |colour| colour.index() as u8),
            ending: None,
            ply: 0,
            hash: 0,
        };
        state.hash = state.hash_from_scratch();
        if state.wolf == ODIN {
            state.ending = Some(EndReason::WolfReachedOdin);
        } else if state.complete_sets() >= rules.sets_to_win() {
            state.ending = Some(EndReason::FenrirBound);
        } else {
            state.settle_turn();
        }
        Ok(state)
    }

    /// The unvalidated setup of this position, every field written out
    /// once the tiles are dealt.
    fn setup(&self) -> FenrirPathSetup {
        if !self.dealt {
            return FenrirPathSetup::Undealt;
        }
        FenrirPathSetup::Dealt(DealtSetup {
            deal: self.deal(),
            gods: Some(self.gods),
            wolf: Some(self.wolf),
            collected: self.collected,
            last_mover: self.last_mover(),
        })
    }

    fn move_text(&self, mv: FenrirPathMove) -> String {
        mv.to_string()
    }

    /// Reads a god's letter and the tile it ends on, e.g. `R7` or `g12`.
    fn parse_move(&self, text: &str) -> Result<FenrirPathMove, ParseError> {
        let trimmed = text.trim();
        let mut chars = trimmed.chars();
        let god = chars.next().and_then(Colour::from_letter).ok_or_else(|| {
            ParseError::new(
                "move",
                text,
                "a move is a god's letter (R, B, G, Y) and the tile it ends on, e.g. R7",
            )
        })?;
        let to: u8 = chars.as_str().parse().map_err(|_| {
            ParseError::new(
                "move",
                text,
                format!("`{}` is not a tile number", chars.as_str()),
            )
        })?;
        let mv = FenrirPathMove { god, to };
        self.check_move(mv)
            .map_err(|illegal| ParseError::new("move", text, illegal.reason()))?;
        Ok(mv)
    }

    /// Two rows under the tile numbers: the tile colours (`-` when
    /// collected) and the pieces (`W` the wolf, god letters), then the
    /// state of play.
    fn diagram(&self) -> String {
        if !self.dealt {
            return "the tiles have not been dealt\n".to_string();
        }
        let last = self.rules.last_tile();
        let odin_gods: String = self
            .colours()
            .filter(|god| self.gods[god.index()] == ODIN)
            .map(Colour::letter)
            .collect();
        let odin_width = odin_gods.len().max(4);
        let mut numbers = format!("tile  {:>odin_width$}", "0");
        let mut colours = format!("path  {:>odin_width$}", "Odin");
        let mut pieces = format!("      {odin_gods:>odin_width$}");
        for tile in 1..=last {
            numbers.push_str(&format!("{tile:>3}"));
            let colour = match self.tile_colour(tile) {
                _ if self.collected & tile_bit(tile) != 0 => '-',
                Some(colour) => colour.letter(),
                None => '?',
            };
            colours.push_str(&format!("{colour:>3}"));
            let piece = if self.wolf == tile {
                'W'
            } else {
                self.colours()
                    .find(|god| self.gods[god.index()] == tile)
                    .map_or(' ', Colour::letter)
            };
            pieces.push_str(&format!("{piece:>3}"));
        }
        let mut out = format!("{numbers}\n{colours}\n{}\n", pieces.trim_end());
        out.push_str(&format!(
            "sets complete {}/{}, wolf on tile {}\n",
            self.complete_sets(),
            self.rules.sets_to_win(),
            self.wolf
        ));
        match self.ending {
            Some(reason) => {
                let result = if reason.is_win() {
                    "the gods win"
                } else {
                    "the gods lose"
                };
                out.push_str(&format!("game over: {result} ({})\n", reason.name()));
            }
            None => {
                let mut moves = MoveList::new();
                self.legal_moves(&mut moves);
                let who: Vec<&str> = self.gods_to_move().map(Colour::name).collect();
                let order = match self.rules.turn_order() {
                    TurnOrder::Free => "free turn order",
                    TurnOrder::Fixed => "fixed turn order",
                };
                out.push_str(&format!(
                    "to move: {} ({order}), {} legal moves, ply {}\n",
                    who.join(" or "),
                    moves.len(),
                    self.ply
                ));
            }
        }
        out
    }

    /// The path from Odin's tile to the wolf's start, with the gods, the
    /// wolf and the counters (see `picture.rs`).
    fn picture(&self) -> Picture {
        self.drawn()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{check_move_texts_refused, check_position_texts};

    #[test]
    fn a_deal_alone_is_the_start_of_the_deal() {
        let rules = FenrirPathRules::default();
        let state = FenrirPath::from_position_text("RRRRRRBBBBBBGGGGGGYYYYYY:GRYB", rules).unwrap();
        assert_eq!(
            state.position_text(),
            "RRRRRRBBBBBBGGGGGGYYYYYY:GRYB gods=R10,B20,G5,Y15 wolf=24 collected=- last=-"
        );
        let again = FenrirPath::from_position_text(&state.position_text(), rules).unwrap();
        assert_eq!(again, state);
    }

    #[test]
    fn malformed_positions_name_the_problem() {
        let rules = FenrirPathRules::default();
        let deal = "RRRRRRBBBBBBGGGGGGYYYYYY:RBGY";
        let cases = [
            ("", "empty"),
            ("x", "colon"),
            (&format!("{deal} wolf"), "key=value"),
            (&format!("{deal} wolf=x"), "not a tile number"),
            (&format!("{deal} wolf=25"), "path ends at 24"),
            (&format!("{deal} wolf=3 wolf=4"), "twice"),
            (&format!("{deal} gods=R5,B10,G15"), "does not place yellow"),
            (&format!("{deal} gods=R5,B10,G15,Y20,R3"), "placed twice"),
            (&format!("{deal} gods=R5,B5,G15,Y20"), "both on tile 5"),
            (&format!("{deal} gods=R0,B0,G15,Y20"), ""),
            (
                &format!("{deal} gods=R5,B10,G15,Y24"),
                "yellow and the wolf",
            ),
            (&format!("{deal} collected=0"), "Odin's tile has no colour"),
            (&format!("{deal} last=Q"), "`last`"),
            (&format!("{deal} turn=R"), "unknown field"),
            (
                &format!("{deal} wolf=0 collected=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18"),
                "already won",
            ),
        ];
        check_position_texts::<FenrirPath>(&rules, &cases);
    }

    #[test]
    fn moves_are_read_and_explained() {
        let rules = FenrirPathRules::default();
        let state = FenrirPath::from_position_text("RRRRRRBBBBBBGGGGGGYYYYYY:RBGY", rules).unwrap();
        assert_eq!(
            state.parse_move("r6").unwrap(),
            FenrirPathMove {
                god: Colour::Red,
                to: 6
            }
        );
        check_move_texts_refused(
            &state,
            &[
                ("", "god's letter"),
                ("X4", "god's letter"),
                ("R", "not a tile number"),
                ("R9", "cannot end a move on tile 9"),
                ("R40", "cannot end a move on tile 40"),
                ("R300", "not a tile number"),
            ],
        );
    }
}
