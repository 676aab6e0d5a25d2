//! Positions drawn as pictures: one SVG per position, and the same picture
//! split so that a game can be replayed by changing only what a ply changed.
//!
//! A [`Picture`] is a *frame* (the board, its marked squares, the symbols of
//! the pieces), which depends only on the rules, and a list of [`Slot`]s at
//! fixed places, each empty or holding a piece or a short text. Replaying a
//! game then means changing the contents of a few slots per ply, and a page
//! that shows a game never has to know its rules: the game computes every
//! picture, the page only swaps slot contents.

use std::fmt::Write;

/// A position drawn: the frame of the board and what each slot holds.
///
/// Two pictures of positions under the same rules have the same frame and
/// the same slots in the same places; only the contents differ (see
/// [`Picture::same_layout`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// The width of the drawing, in SVG user units.
    pub width: u32,
    /// The height of the drawing, in SVG user units.
    pub height: u32,
    /// SVG elements drawn beneath the slots: the board and its marked
    /// squares, labels, and in a `<defs>` the `<symbol>`s that
    /// [`Content::Piece`] names (each with a `viewBox`, drawn to fill its
    /// slot). A slot that only one player sees is drawn, for the others,
    /// as the symbol [`HIDDEN_SYMBOL`], which a frame with such slots
    /// defines.
    pub frame: String,
    /// The places where pieces and texts appear, in a fixed order.
    pub slots: Vec<Slot>,
}

/// The symbol drawn for a slot's content that the viewer may not see (the
/// back of a card, say).
pub const HIDDEN_SYMBOL: &str = "hidden";

/// A place in a picture that holds one piece or one text.
#[derive(Clone, Debug, PartialEq)]
pub struct Slot {
    /// What the place is called in the game's notation (`"e4"`,
    /// `"hand of player 2, card 3"`), shown when the pointer rests on it.
    pub name: String,
    /// The left edge, in SVG user units.
    pub x: f32,
    /// The top edge, in SVG user units.
    pub y: f32,
    /// The width, in SVG user units.
    pub width: f32,
    /// The height, in SVG user units.
    pub height: f32,
    /// The only player who sees the content, if it is hidden from the
    /// others (a hand of cards); `None` for what every player sees.
    pub seen_by: Option<usize>,
    /// What the slot holds.
    pub content: Content,
}

/// What a slot holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Content {
    /// Nothing.
    Empty,
    /// A piece: the id of a `<symbol>` of the frame.
    Piece(String),
    /// A short text (a counter, a card's value), centred in the slot.
    Text(String),
}

/// Who looks at a picture: what slots hidden from some players show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// Everything, hidden or not (the open-hand view).
    All,
    /// What this player sees: other players' hidden slots show the
    /// [`HIDDEN_SYMBOL`] when they hold something.
    Player(usize),
}

impl Slot {
    /// A slot every player sees.
    pub fn new(
        name: impl Into<String>,
        x: f32,
        y: f32,
        size: (f32, f32),
        content: Content,
    ) -> Self {
        Slot {
            name: name.into(),
            x,
            y,
            width: size.0,
            height: size.1,
            seen_by: None,
            content,
        }
    }

    /// This slot, seen only by `player`.
    #[must_use]
    pub fn seen_only_by(mut self, player: usize) -> Self {
        self.seen_by = Some(player);
        self
    }

    /// What `viewer` sees in this slot.
    pub fn content_for(&self, viewer: Viewer) -> Content {
        match (self.seen_by, viewer) {
            (Some(owner), Viewer::Player(player)) if owner != player => match self.content {
                Content::Empty => Content::Empty,
                _ => Content::Piece(HIDDEN_SYMBOL.to_string()),
            },
            _ => self.content.clone(),
        }
    }
}

impl Picture {
    /// Whether `other` has the same frame and slots in the same places,
    /// whatever they hold: then one is turned into the other by changing
    /// slot contents only.
    pub fn same_layout(&self, other: &Picture) -> bool {
        self.width == other.width
            && self.height == other.height
            && self.frame == other.frame
            && self.slots.len() == other.slots.len()
            && self.slots.iter().zip(&other.slots).all(|(a, b)| {
                (&a.name, a.x, a.y, a.width, a.height, a.seen_by)
                    == (&b.name, b.x, b.y, b.width, b.height, b.seen_by)
            })
    }

    /// The picture as a standalone SVG document, as `viewer` sees it.
    pub fn svg(&self, viewer: Viewer) -> String {
        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" \
             width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\">\n{frame}\n",
            w = self.width,
            h = self.height,
            frame = self.frame
        );
        for slot in &self.slots {
            write_slot(&mut svg, slot, &slot.content_for(viewer));
        }
        svg.push_str("</svg>\n");
        svg
    }

    /// A picture of a diagram of text: one slot that holds the whole text,
    /// a line per line, in a fixed-width font, on a page of fixed size (80
    /// columns by 20 lines are seen whole), so that every diagram of a
    /// game has the same layout. The picture of a game that draws no
    /// board.
    pub fn of_text(text: &str) -> Picture {
        let (width, height) = (TEXT_COLUMNS * CHAR_WIDTH, TEXT_LINES * LINE_HEIGHT);
        let slot = Slot::new(
            "diagram",
            0.0,
            0.0,
            (width, height),
            Content::Text(text.into()),
        );
        Picture {
            width: width as u32,
            height: height as u32,
            frame: "<style>text.diagram{font-family:monospace;white-space:pre}</style>".into(),
            slots: vec![slot],
        }
    }
}

/// The columns and lines of a text picture, and the size of a character.
const TEXT_COLUMNS: f32 = 80.0;
const TEXT_LINES: f32 = 20.0;
const CHAR_WIDTH: f32 = 9.0;
const LINE_HEIGHT: f32 = 18.0;

/// Writes one slot holding `content` as SVG elements.
fn write_slot(svg: &mut String, slot: &Slot, content: &Content) {
    let Slot {
        x,
        y,
        width,
        height,
        ..
    } = *slot;
    // Writing to a String cannot fail.
    let _ = match content {
        Content::Empty => Ok(()),
        Content::Piece(symbol) => writeln!(
            svg,
            "<use href=\"#{}\" x=\"{x}\" y=\"{y}\" width=\"{width}\" height=\"{height}\"/>",
            escape_xml(symbol)
        ),
        Content::Text(text) if text.contains('\n') => write_lines(svg, x, y, text),
        Content::Text(text) => writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" \
             dominant-baseline=\"central\">{}</text>",
            x + width / 2.0,
            y + height / 2.0,
            // To a tenth, so that the SVG reads 18.2 and not 18.199999.
            ((height * 0.7).min(24.0) * 10.0).round() / 10.0,
            escape_xml(text)
        ),
    };
}

/// A text of several lines, from the top left corner of its slot, one line
/// under the other.
fn write_lines(svg: &mut String, x: f32, y: f32, text: &str) -> std::fmt::Result {
    write!(
        svg,
        "<text class=\"diagram\" font-size=\"14\" x=\"{x}\" y=\"{y}\">"
    )?;
    for line in text.lines() {
        write!(
            svg,
            "<tspan x=\"{x}\" dy=\"{LINE_HEIGHT}\">{}</tspan>",
            escape_xml(line)
        )?;
    }
    writeln!(svg, "</text>")
}

/// How many times an SVG document draws the symbol `symbol` (its `<use>`
/// elements that name it): the pieces of that kind a picture shows.
pub fn symbol_uses(svg: &str, symbol: &str) -> usize {
    svg.matches(&format!("href=\"#{symbol}\"")).count()
}

/// `text` with the characters that XML gives a meaning escaped.
pub fn escape_xml(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            _ => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(owner: usize, content: Content) -> Slot {
        Slot::new("card", 0.0, 0.0, (10.0, 10.0), content).seen_only_by(owner)
    }

    #[test]
    fn hidden_slots_show_their_back_to_other_players_only() {
        let held = card(1, Content::Text("5".into()));
        assert_eq!(held.content_for(Viewer::All), Content::Text("5".into()));
        assert_eq!(
            held.content_for(Viewer::Player(1)),
            Content::Text("5".into())
        );
        assert_eq!(
            held.content_for(Viewer::Player(0)),
            Content::Piece(HIDDEN_SYMBOL.into())
        );
        assert_eq!(
            card(1, Content::Empty).content_for(Viewer::Player(0)),
            Content::Empty
        );
    }

    #[test]
    fn a_text_picture_writes_a_line_per_line_and_escapes_its_text() {
        let picture = Picture::of_text("a < b\n&c");
        let svg = picture.svg(Viewer::All);
        assert_eq!(svg.matches("<tspan").count(), 2, "{svg}");
        assert!(svg.contains(">a &lt; b</tspan>"), "{svg}");
        assert!(svg.contains(">&amp;c</tspan>"), "{svg}");
        assert!(picture.same_layout(&Picture::of_text("one line")));
    }

    #[test]
    fn pieces_are_drawn_as_uses_of_their_symbols() {
        let picture = Picture {
            width: 20,
            height: 10,
            frame: String::new(),
            slots: vec![
                Slot::new("a1", 0.0, 0.0, (10.0, 10.0), Content::Piece("king".into())),
                Slot::new("b1", 10.0, 0.0, (10.0, 10.0), Content::Empty),
            ],
        };
        let svg = picture.svg(Viewer::All);
        assert_eq!(svg.matches("<use ").count(), 1);
        assert!(svg.contains("href=\"#king\" x=\"0\" y=\"0\""), "{svg}");
    }
}
