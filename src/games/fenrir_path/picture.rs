//! The picture of a position: the path drawn left to right from Odin's
//! tile to the wolf's start, the tiles' colours (or their collected backs),
//! the gods and the wolf above the tiles, and the counters below.
//!
//! The deal is part of the position (before it the path is blank), so the
//! tiles are slots too; the frame holds only what the rules fix: the number
//! of tiles, their numbers, Odin's tile and the symbols.

use super::board::{Colour, ODIN, tile_bit};
use super::options::TurnOrder;
use super::state::FenrirPath;
use crate::core::{Content, Picture, Slot};
use std::fmt::Write;

/// The side of a tile and of a piece's place.
const CELL: f32 = 34.0;
/// The room between two tiles.
const GAP: f32 = 4.0;
/// The left and right margin.
const MARGIN: f32 = 16.0;
/// Odin's tile is two cells wide: up to four gods wait above it.
const ODIN_WIDTH: f32 = 2.0 * CELL + GAP;
/// The rows, from the top: the upper row of gods on Odin's tile, the
/// pieces, the tiles, the tile numbers and the counters.
const ODIN_ROW: f32 = 40.0;
const PIECE_ROW: f32 = ODIN_ROW + CELL + GAP;
const TILE_ROW: f32 = PIECE_ROW + CELL + GAP;
const NUMBER_ROW: f32 = TILE_ROW + CELL + 14.0;
const COUNTER_ROW: f32 = NUMBER_ROW + 14.0;
const TEXT_HEIGHT: f32 = 22.0;

/// The fill of each colour's tiles and god.
const FILLS: [&str; 4] = ["#d64541", "#3a78c9", "#3f9c4a", "#e8b923"];
/// The letter colour on each colour's god (dark on yellow).
const INKS: [&str; 4] = ["#fff", "#fff", "#fff", "#222"];

impl FenrirPath {
    /// The picture of this position (see the module documentation).
    pub(crate) fn drawn(&self) -> Picture {
        let rules = self.rules;
        let last = rules.last_tile();
        let width = 2.0 * MARGIN + ODIN_WIDTH + f32::from(last) * (CELL + GAP);
        let mut slots = Vec::new();

        // Gods waiting on Odin's tile, two above two, then the wolf on the
        // tile itself (where it stands only when the gods have lost).
        for colour in self.colours() {
            let index = colour.index();
            let x = MARGIN + (index % 2) as f32 * (CELL + GAP);
            let y = if index < 2 { ODIN_ROW } else { PIECE_ROW };
            let here = self.dealt && self.god_tile(colour) == ODIN;
            slots.push(Slot::new(
                format!("{colour} god on Odin's tile"),
                x,
                y,
                (CELL, CELL),
                piece(here, god_symbol(colour)),
            ));
        }
        slots.push(Slot::new(
            "wolf on Odin's tile",
            MARGIN + (ODIN_WIDTH - CELL) / 2.0,
            TILE_ROW,
            (CELL, CELL),
            piece(self.dealt && self.wolf() == ODIN, "wolf".into()),
        ));

        for tile in 1..=last {
            let x = tile_x(tile);
            let standing = self.colours().find(|&god| self.god_tile(god) == tile);
            let content = match standing {
                _ if !self.dealt => Content::Empty,
                Some(god) => Content::Piece(god_symbol(god)),
                None if self.wolf() == tile => Content::Piece("wolf".into()),
                None => Content::Empty,
            };
            slots.push(Slot::new(
                format!("on tile {tile}"),
                x,
                PIECE_ROW,
                (CELL, CELL),
                content,
            ));
            let face = match self.tile_colour(tile) {
                Some(colour) if self.collected() & tile_bit(tile) != 0 => {
                    Content::Piece(format!("collected-{colour}"))
                }
                Some(colour) => Content::Piece(format!("tile-{colour}")),
                None => Content::Empty,
            };
            slots.push(Slot::new(
                format!("tile {tile}"),
                x,
                TILE_ROW,
                (CELL, CELL),
                face,
            ));
        }

        // One counter per colour, beside a swatch of the colour in the frame.
        let per_colour = rules.tiles_per_colour();
        for colour in self.colours() {
            let collected = if self.dealt {
                self.colour_count(colour, true)
            } else {
                0
            };
            slots.push(Slot::new(
                format!("{colour} tiles collected"),
                counter_x(colour) + 22.0,
                COUNTER_ROW,
                (56.0, TEXT_HEIGHT),
                Content::Text(format!("{collected}/{per_colour}")),
            ));
        }
        let status_row = COUNTER_ROW + TEXT_HEIGHT + 6.0;
        let half = (width - 2.0 * MARGIN) / 2.0;
        slots.push(Slot::new(
            "sets and wolf",
            MARGIN,
            status_row,
            (half, TEXT_HEIGHT),
            Content::Text(if self.dealt {
                format!(
                    "sets complete {}/{} \u{b7} wolf on tile {}",
                    self.complete_sets(),
                    rules.sets_to_win(),
                    self.wolf()
                )
            } else {
                "the tiles are not dealt yet".to_string()
            }),
        ));
        slots.push(Slot::new(
            "to move",
            MARGIN + half,
            status_row,
            (half, TEXT_HEIGHT),
            Content::Text(self.turn_text()),
        ));

        Picture {
            width: width.ceil() as u32,
            height: (status_row + TEXT_HEIGHT + MARGIN).ceil() as u32,
            frame: self.frame(width),
            slots,
        }
    }

    /// The tiles of `colour` that are collected (or, with `false`, not).
    pub(crate) fn colour_count(&self, colour: Colour, collected: bool) -> u32 {
        let tiles = self.colour_tiles[colour.index()];
        let chosen = if collected {
            tiles & self.collected
        } else {
            tiles & !self.collected
        };
        chosen.count_ones()
    }

    /// Who moves, or how the game ended.
    fn turn_text(&self) -> String {
        if !self.dealt {
            return String::new();
        }
        if let Some(reason) = self.ending() {
            let result = if reason.is_win() {
                "the gods win"
            } else {
                "the gods lose"
            };
            return format!("{result} ({})", reason.name());
        }
        let gods: Vec<&str> = self.gods_to_move().map(Colour::name).collect();
        format!("to move: {}", gods.join(" or "))
    }

    /// The frame: the symbols, Odin's tile, the places of the tiles, their
    /// numbers, the title and the swatches of the counters.
    fn frame(&self, width: f32) -> String {
        let rules = self.rules;
        let mut frame = String::from("<defs>\n");
        for colour in self.colours() {
            let (fill, ink) = (FILLS[colour.index()], INKS[colour.index()]);
            let letter = colour.letter();
            let _ = writeln!(
                frame,
                "<symbol id=\"{god}\" viewBox=\"0 0 40 40\"><circle cx=\"20\" cy=\"20\" r=\"17\" \
                 fill=\"{fill}\" stroke=\"#222\" stroke-width=\"2\"/><text x=\"20\" y=\"27\" \
                 font-size=\"20\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{ink}\">\
                 {letter}</text></symbol>",
                god = god_symbol(colour)
            );
            let _ = writeln!(
                frame,
                "<symbol id=\"tile-{colour}\" viewBox=\"0 0 40 40\"><rect x=\"1\" y=\"1\" \
                 width=\"38\" height=\"38\" rx=\"5\" fill=\"{fill}\" stroke=\"#333\"/></symbol>"
            );
            // A collected tile is turned over: pale, with a tick and a rim
            // of the colour it had, so the count of each colour stays visible.
            let _ = writeln!(
                frame,
                "<symbol id=\"collected-{colour}\" viewBox=\"0 0 40 40\"><rect x=\"2\" y=\"2\" \
                 width=\"36\" height=\"36\" rx=\"5\" fill=\"#eee\" stroke=\"{fill}\" \
                 stroke-width=\"4\"/><path d=\"M11 21 L18 28 L30 13\" fill=\"none\" \
                 stroke=\"#555\" stroke-width=\"4\"/></symbol>"
            );
        }
        frame.push_str(
            "<symbol id=\"wolf\" viewBox=\"0 0 40 40\"><path d=\"M4 6 L14 13 L26 13 L36 6 \
             L34 24 L20 37 L6 24 Z\" fill=\"#444\" stroke=\"#111\" stroke-width=\"2\"/>\
             <circle cx=\"14\" cy=\"21\" r=\"2.5\" fill=\"#ffd23f\"/><circle cx=\"26\" cy=\"21\" \
             r=\"2.5\" fill=\"#ffd23f\"/></symbol>\n</defs>\n",
        );
        let order = match rules.turn_order() {
            TurnOrder::Free => "the team names the next god",
            TurnOrder::Fixed => "the gods move in turn",
        };
        let _ = writeln!(
            frame,
            "<rect width=\"100%\" height=\"100%\" fill=\"#f7f3e8\"/>\n\
             <text x=\"{MARGIN}\" y=\"24\" font-size=\"18\" font-weight=\"bold\">Fenrir's Path</text>\
             <text x=\"{right}\" y=\"24\" font-size=\"13\" text-anchor=\"end\" fill=\"#555\">\
             collect {sets} of {colours} colours before the wolf reaches Odin; {order}</text>",
            right = width - MARGIN,
            sets = rules.sets_to_win(),
            colours = rules.colours(),
        );
        let _ = writeln!(
            frame,
            "<rect x=\"{MARGIN}\" y=\"{TILE_ROW}\" width=\"{ODIN_WIDTH}\" height=\"{CELL}\" \
             rx=\"5\" fill=\"#fff\" stroke=\"#8a6d1d\" stroke-width=\"2\"/>\
             <text x=\"{x}\" y=\"{odin_y}\" font-size=\"14\" font-style=\"italic\" \
             text-anchor=\"middle\" fill=\"#8a6d1d\">Odin</text>\
             <text x=\"{x}\" y=\"{NUMBER_ROW}\" font-size=\"11\" text-anchor=\"middle\" \
             fill=\"#555\">0</text>",
            x = MARGIN + ODIN_WIDTH / 2.0,
            odin_y = TILE_ROW + CELL / 2.0 + 5.0,
        );
        for tile in 1..=rules.last_tile() {
            let x = tile_x(tile);
            let _ = writeln!(
                frame,
                "<rect x=\"{x}\" y=\"{TILE_ROW}\" width=\"{CELL}\" height=\"{CELL}\" rx=\"5\" \
                 fill=\"none\" stroke=\"#bbb\" stroke-dasharray=\"3 3\"/>\
                 <text x=\"{cx}\" y=\"{NUMBER_ROW}\" font-size=\"11\" text-anchor=\"middle\" \
                 fill=\"#555\">{tile}</text>",
                cx = x + CELL / 2.0,
            );
        }
        for colour in self.colours() {
            let _ = writeln!(
                frame,
                "<rect x=\"{x}\" y=\"{y}\" width=\"16\" height=\"16\" rx=\"3\" fill=\"{fill}\" \
                 stroke=\"#333\"/>",
                x = counter_x(colour),
                y = COUNTER_ROW + 3.0,
                fill = FILLS[colour.index()],
            );
        }
        frame
    }
}

/// The left edge of a fetter tile (1 and up) and of the place above it.
fn tile_x(tile: u8) -> f32 {
    MARGIN + ODIN_WIDTH + GAP + f32::from(tile - 1) * (CELL + GAP)
}

/// The left edge of a colour's counter swatch.
fn counter_x(colour: Colour) -> f32 {
    MARGIN + colour.index() as f32 * 120.0
}

/// The symbol of a colour's god.
fn god_symbol(colour: Colour) -> String {
    format!("god-{colour}")
}

/// The piece `symbol` if `here`, else nothing.
fn piece(here: bool, symbol: String) -> Content {
    if here {
        Content::Piece(symbol)
    } else {
        Content::Empty
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::symbol_uses;
    use crate::core::{Game, Notation, Viewer};
    use crate::games::fenrir_path::FenrirPathRules;
    use crate::testing::playout_states;

    /// Every state of a few random games, from before the deal to the end.
    fn sample(rules: FenrirPathRules) -> Vec<FenrirPath> {
        playout_states(&FenrirPath::new(rules), 6, 1000, 11)
    }

    fn check_pictures(rules: FenrirPathRules) {
        let states = sample(rules);
        assert!(states.len() > 20, "the random games are too short");
        let first = states[0].picture();
        for state in &states {
            let picture = state.picture();
            assert!(picture.same_layout(&first), "{}", state.position_text());
            let svg = picture.svg(Viewer::All);
            let dealt = state.is_dealt();
            let total: usize = Colour::ALL
                .iter()
                .map(|&colour| symbol_uses(&svg, &god_symbol(colour)))
                .sum();
            assert_eq!(total, if dealt { state.colours().count() } else { 0 });
            assert_eq!(symbol_uses(&svg, "wolf"), usize::from(dealt));
            for colour in state.colours() {
                let open = if dealt {
                    state.colour_count(colour, false)
                } else {
                    0
                };
                let collected = if dealt {
                    state.colour_count(colour, true)
                } else {
                    0
                };
                assert_eq!(symbol_uses(&svg, &format!("tile-{colour}")), open as usize);
                assert_eq!(
                    symbol_uses(&svg, &format!("collected-{colour}")),
                    collected as usize
                );
                assert!(svg.contains(&format!(">{collected}/{}<", rules.tiles_per_colour())));
            }
            if !dealt {
                continue;
            }
            // Each god stands where the state puts it.
            for colour in state.colours() {
                let tile = state.god_tile(colour);
                let name = if tile == ODIN {
                    format!("{colour} god on Odin's tile")
                } else {
                    format!("on tile {tile}")
                };
                let slot = picture.slots.iter().find(|slot| slot.name == name).unwrap();
                assert_eq!(slot.content, Content::Piece(god_symbol(colour)), "{name}");
            }
            assert!(svg.contains(&format!("wolf on tile {}", state.wolf())));
        }
    }

    #[test]
    fn the_picture_shows_the_tiles_gods_and_wolf_of_every_sampled_position() {
        check_pictures(FenrirPathRules::default());
        check_pictures(
            "colours=3,tiles-per-colour=4,spacing=3,turn-order=fixed"
                .parse()
                .unwrap(),
        );
    }

    #[test]
    fn the_path_is_drawn_as_dealt() {
        let rules = FenrirPathRules::default();
        let deal = "RRRRRRBBBBBBGGGGGGYYYYYY:GRYB";
        let mut state = FenrirPath::from_position_text(deal, rules).unwrap();
        state.try_play(state.parse_move("G6").unwrap()).unwrap();
        let picture = state.picture();
        let content = |name: &str| {
            let slot = picture.slots.iter().find(|slot| slot.name == name);
            slot.unwrap().content.clone()
        };
        assert_eq!(content("tile 1"), Content::Piece("tile-red".into()));
        assert_eq!(content("tile 6"), Content::Piece("tile-red".into()));
        assert_eq!(content("tile 7"), Content::Piece("tile-blue".into()));
        assert_eq!(content("tile 24"), Content::Piece("tile-yellow".into()));
        // Green left tile 5 for tile 6, a red tile: the wolf comes two closer.
        assert_eq!(content("on tile 5"), Content::Empty);
        assert_eq!(content("on tile 6"), Content::Piece("god-green".into()));
        assert_eq!(content("on tile 22"), Content::Piece("wolf".into()));
        assert_eq!(content("on tile 24"), Content::Empty);
        assert_eq!(content("red tiles collected"), Content::Text("0/6".into()));
        assert_eq!(
            content("to move"),
            Content::Text("to move: red or blue or yellow".into())
        );
    }
}
