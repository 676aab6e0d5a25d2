//! The picture of a position: the track with the pawn, what happened last,
//! each player's hand (seen only by its holder), and the discards.
//!
//! Everything a slot shows to all players is public: the pawn, the number
//! of cards in each hand and in the stock, the discards, whose turn it is
//! and the last public event. A hand is drawn as its cards in order, packed
//! from the left, in slots seen only by its holder; the others see as many
//! card backs. Where a card lies in a hand therefore tells the others
//! nothing but the hand's size, which is public.

use super::cards::{Card, CardSet, SUIT_NAMES, SUITS};
use super::state::{Event, FenrirCards, Phase};
use crate::core::{Content, Game, HIDDEN_SYMBOL, Picture, Slot};
use std::fmt::Write;

const MARGIN: f32 = 16.0;
/// A card's size and the room between two cards.
const CARD: (f32, f32) = (30.0, 42.0);
const CARD_GAP: f32 = 4.0;
/// The width of the players' labels, left of the cards.
const LABEL_WIDTH: f32 = 104.0;
/// The fewest card places in a row (a full suit in the standard deck).
const MIN_COLUMNS: usize = 12;
/// The most places the pawn is drawn at: a longer track groups its spaces.
const MAX_PAWN_PLACES: u32 = 120;
const TEXT_HEIGHT: f32 = 20.0;
const TRACK_Y: f32 = 64.0;
const PAWN_SIZE: f32 = 18.0;
const STATUS_Y: f32 = TRACK_Y + 30.0;
const HANDS_Y: f32 = STATUS_Y + 2.0 * (TEXT_HEIGHT + 4.0) + 10.0;

/// The colour of each suit: iron for Leyding, steel for Dromi, and a
/// violet for the magic ribbon Gleipnir.
const SUIT_COLOURS: [&str; SUITS] = ["#9a5b2a", "#4f6270", "#7b4bb3"];

/// Where things go, fixed by the rules.
struct Layout {
    width: f32,
    columns: usize,
    hand_rows: usize,
    /// Spaces of the track per pawn place (1 unless the track is long).
    spaces_per_place: u32,
}

impl Layout {
    fn of(state: &FenrirCards) -> Layout {
        let rules = state.rules();
        let columns = usize::from(rules.ranks()).max(MIN_COLUMNS);
        // Hands only grow by drawing from the stock, so no hand can hold
        // more than the largest deal and the whole stock.
        let most = rules.hand_sizes().into_iter().max().unwrap_or(0) + rules.stock_size();
        let places = rules.track().saturating_add(1);
        Layout {
            width: 2.0 * MARGIN + LABEL_WIDTH + columns as f32 * (CARD.0 + CARD_GAP),
            columns,
            hand_rows: most.div_ceil(columns).max(1),
            spaces_per_place: places.div_ceil(MAX_PAWN_PLACES),
        }
    }

    fn cards_x(&self, column: usize) -> f32 {
        MARGIN + LABEL_WIDTH + column as f32 * (CARD.0 + CARD_GAP)
    }

    fn player_height(&self) -> f32 {
        self.hand_rows as f32 * (CARD.1 + CARD_GAP) + 10.0
    }

    fn player_y(&self, player: usize) -> f32 {
        HANDS_Y + player as f32 * self.player_height()
    }

    fn track_ends(&self) -> (f32, f32) {
        (MARGIN + 12.0, self.width - MARGIN - 12.0)
    }

    /// The x of the track at `space`, of a track of `track` spaces.
    fn track_x(&self, space: u32, track: u32) -> f32 {
        let (start, end) = self.track_ends();
        start + (end - start) * (f64::from(space) / f64::from(track)) as f32
    }
}

impl FenrirCards {
    /// The picture of this position (see the module documentation).
    pub(crate) fn drawn(&self) -> Picture {
        let rules = self.rules();
        let ranks = rules.ranks();
        let track = rules.track();
        let layout = Layout::of(self);
        let dealt = self.is_dealt();
        let mut slots = Vec::new();

        let places = track / layout.spaces_per_place + 1;
        for place in 0..places {
            let first = place * layout.spaces_per_place;
            let last = (first + layout.spaces_per_place - 1).min(track);
            let name = if first == last {
                format!("track space {first}")
            } else {
                format!("track spaces {first} to {last}")
            };
            // A last discard may carry the pawn past Odin: it is drawn there.
            let here = dealt && (first..=last).contains(&self.pawn().min(track));
            slots.push(Slot::new(
                name,
                layout.track_x(first, track) - PAWN_SIZE / 2.0,
                TRACK_Y - PAWN_SIZE / 2.0,
                (PAWN_SIZE, PAWN_SIZE),
                if here {
                    Content::Piece("pawn".into())
                } else {
                    Content::Empty
                },
            ));
        }

        let third = (layout.width - 2.0 * MARGIN) / 3.0;
        let status = [
            ("pawn", format!("pawn on space {} of {track}", self.pawn())),
            ("stock", format!("stock: {} cards", self.stock().len())),
            ("turn", self.turn_text()),
        ];
        for (index, (name, text)) in status.into_iter().enumerate() {
            slots.push(Slot::new(
                name,
                MARGIN + index as f32 * third,
                STATUS_Y,
                (third, TEXT_HEIGHT),
                Content::Text(if dealt || name == "turn" {
                    text
                } else {
                    String::new()
                }),
            ));
        }
        slots.push(Slot::new(
            "last event",
            MARGIN,
            STATUS_Y + TEXT_HEIGHT + 4.0,
            (layout.width - 2.0 * MARGIN, TEXT_HEIGHT),
            Content::Text(self.last_events_text()),
        ));

        for player in 0..rules.players() {
            let top = layout.player_y(player);
            let on_turn = matches!(
                self.phase(),
                Phase::Ask | Phase::FailedAsk { .. } | Phase::Stuck
            ) && self.player_to_move() == player;
            slots.push(Slot::new(
                format!("turn of player {player}"),
                MARGIN,
                top + 2.0,
                (16.0, 16.0),
                if on_turn {
                    Content::Piece("turn".into())
                } else {
                    Content::Empty
                },
            ));
            let hand = self.hand(player);
            slots.push(Slot::new(
                format!("cards of player {player}"),
                MARGIN,
                top + 22.0,
                (LABEL_WIDTH - 12.0, 18.0),
                Content::Text(if dealt {
                    format!("{} cards", hand.len())
                } else {
                    String::new()
                }),
            ));
            let mut cards = hand.iter();
            for index in 0..layout.hand_rows * layout.columns {
                let (row, column) = (index / layout.columns, index % layout.columns);
                slots.push(
                    Slot::new(
                        format!("hand of player {player}, card {}", index + 1),
                        layout.cards_x(column),
                        top + row as f32 * (CARD.1 + CARD_GAP),
                        CARD,
                        cards
                            .next()
                            .map_or(Content::Empty, |card| card_content(card, ranks)),
                    )
                    .seen_only_by(player),
                );
            }
        }

        let discards_y = layout.player_y(rules.players()) + 8.0;
        for card in CardSet::deck(ranks).iter() {
            let (x, y) = discard_place(&layout, discards_y, card, ranks);
            slots.push(Slot::new(
                format!("discarded {}", card.text(ranks)),
                x,
                y,
                CARD,
                if self.discarded().contains(card) {
                    card_content(card, ranks)
                } else {
                    Content::Empty
                },
            ));
        }

        let height = discards_y + SUITS as f32 * (CARD.1 + CARD_GAP) + MARGIN;
        Picture {
            width: layout.width.ceil() as u32,
            height: height.ceil() as u32,
            frame: self.frame(&layout, discards_y),
            slots,
        }
    }

    /// The last move's public events: the last ask or discard, and the
    /// draws that followed it.
    fn last_events_text(&self) -> String {
        let history = self.history();
        let last_move = history
            .iter()
            .rposition(|event| !matches!(event, Event::Draw { .. }))
            .unwrap_or(0);
        let texts: Vec<String> = history[last_move..]
            .iter()
            .map(|&event| event_text(event, self.rules().ranks()))
            .collect();
        texts.join("; ")
    }

    /// Whose turn it is and what they must do, or how the game ended.
    fn turn_text(&self) -> String {
        let player = self.player_to_move();
        match self.phase() {
            Phase::Deal => "the cards are not dealt yet".to_string(),
            Phase::Ask => format!("player {player} asks"),
            Phase::FailedAsk { suit, .. } => {
                format!("player {player} discards a {}", SUIT_NAMES[suit as usize].0)
            }
            Phase::Stuck => format!("player {player} cannot ask: discards"),
            Phase::Over(end) if end.is_win() => format!("the gods win ({})", end.name()),
            Phase::Over(end) => format!("the gods lose ({})", end.name()),
        }
    }

    /// The frame: the card symbols, the track, the players' labels, the
    /// empty places of the discards.
    fn frame(&self, layout: &Layout, discards_y: f32) -> String {
        let rules = self.rules();
        let ranks = rules.ranks();
        let track = rules.track();
        let mut frame = String::from("<defs>\n");
        for card in CardSet::deck(ranks).iter() {
            let suit = card.suit(ranks);
            let colour = SUIT_COLOURS[suit];
            // The value shows only when it is not the rank.
            let value = if rules.values().is_some() {
                format!(
                    "<text x=\"27\" y=\"39\" font-size=\"8\" text-anchor=\"end\" \
                     fill=\"{colour}\">{}</text>",
                    rules.value(card)
                )
            } else {
                String::new()
            };
            let _ = writeln!(
                frame,
                "<symbol id=\"{id}\" viewBox=\"0 0 30 42\"><rect x=\"1\" y=\"1\" width=\"28\" \
                 height=\"40\" rx=\"3\" fill=\"#fff\" stroke=\"{colour}\" stroke-width=\"2\"/>\
                 <text x=\"4\" y=\"11\" font-size=\"9\" font-weight=\"bold\" fill=\"{colour}\">\
                 {letter}</text><text x=\"15\" y=\"30\" font-size=\"15\" font-weight=\"bold\" \
                 text-anchor=\"middle\" fill=\"{colour}\">{rank}</text>{value}</symbol>",
                id = card_symbol(card, ranks),
                letter = SUIT_NAMES[suit].1,
                rank = card.rank(ranks),
            );
        }
        let _ = writeln!(
            frame,
            "<symbol id=\"{HIDDEN_SYMBOL}\" viewBox=\"0 0 30 42\"><rect x=\"1\" y=\"1\" \
             width=\"28\" height=\"40\" rx=\"3\" fill=\"#34495e\" stroke=\"#1c2833\"/><rect \
             x=\"5\" y=\"5\" width=\"20\" height=\"32\" rx=\"2\" fill=\"none\" stroke=\"#85929e\"/>\
             </symbol>\n\
             <symbol id=\"pawn\" viewBox=\"0 0 20 20\"><circle cx=\"10\" cy=\"10\" r=\"8\" \
             fill=\"#444\" stroke=\"#111\" stroke-width=\"2\"/></symbol>\n\
             <symbol id=\"turn\" viewBox=\"0 0 16 16\"><path d=\"M2 2 L14 8 L2 14 Z\" \
             fill=\"#c0392b\"/></symbol>\n</defs>\n\
             <rect width=\"100%\" height=\"100%\" fill=\"#f4f1ea\"/>\n\
             <text x=\"{MARGIN}\" y=\"26\" font-size=\"18\" font-weight=\"bold\">Fetters of \
             Fenrir</text><text x=\"{right}\" y=\"26\" font-size=\"13\" text-anchor=\"end\" \
             fill=\"#555\">{players} players, track of {track}</text>",
            right = layout.width - MARGIN,
            players = rules.players(),
        );
        let (start, end) = layout.track_ends();
        let _ = writeln!(
            frame,
            "<line x1=\"{start}\" y1=\"{TRACK_Y}\" x2=\"{end}\" y2=\"{TRACK_Y}\" \
             stroke=\"#b9ad94\" stroke-width=\"8\" stroke-linecap=\"round\"/>"
        );
        for tenth in 0..=10u64 {
            let space = (u64::from(track) * tenth / 10) as u32;
            let x = layout.track_x(space, track);
            let label = match tenth {
                0 => "start 0".to_string(),
                10 => format!("Odin {track}"),
                _ => space.to_string(),
            };
            let anchor = match tenth {
                0 => "start",
                10 => "end",
                _ => "middle",
            };
            let _ = writeln!(
                frame,
                "<line x1=\"{x}\" y1=\"{top}\" x2=\"{x}\" y2=\"{bottom}\" stroke=\"#8a7f68\"/>\
                 <text x=\"{x}\" y=\"{label_y}\" font-size=\"10\" text-anchor=\"{anchor}\" \
                 fill=\"#555\">{label}</text>",
                top = TRACK_Y - 7.0,
                bottom = TRACK_Y + 7.0,
                label_y = TRACK_Y - 12.0,
            );
        }
        for player in 0..=rules.players() {
            let top = layout.player_y(player) - 5.0;
            let _ = writeln!(
                frame,
                "<line x1=\"{MARGIN}\" y1=\"{top}\" x2=\"{right}\" y2=\"{top}\" stroke=\"#d5ccb8\"/>",
                right = layout.width - MARGIN,
            );
            if player < rules.players() {
                let _ = writeln!(
                    frame,
                    "<text x=\"{x}\" y=\"{y}\" font-size=\"14\" font-weight=\"bold\">player \
                     {player}</text>",
                    x = MARGIN + 20.0,
                    y = top + 20.0,
                );
            }
        }
        let _ = writeln!(
            frame,
            "<text x=\"{MARGIN}\" y=\"{y}\" font-size=\"14\" font-weight=\"bold\">discarded</text>",
            y = discards_y + 15.0,
        );
        for card in CardSet::deck(ranks).iter() {
            let (x, y) = discard_place(layout, discards_y, card, ranks);
            let _ = writeln!(
                frame,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" rx=\"3\" fill=\"none\" \
                 stroke=\"#c9bfa9\" stroke-dasharray=\"3 2\"/><text x=\"{cx}\" y=\"{cy}\" \
                 font-size=\"10\" text-anchor=\"middle\" fill=\"#b5aa92\">{text}</text>",
                w = CARD.0,
                h = CARD.1,
                cx = x + CARD.0 / 2.0,
                cy = y + CARD.1 / 2.0 + 3.0,
                text = card.text(ranks),
            );
        }
        frame
    }
}

/// The place of `card` among the discards: one row per suit, by rank.
fn discard_place(layout: &Layout, top: f32, card: Card, ranks: u8) -> (f32, f32) {
    let column = usize::from(card.rank(ranks)) - 1;
    let row = card.suit(ranks) as f32;
    (layout.cards_x(column), top + row * (CARD.1 + CARD_GAP))
}

/// The id of the symbol of `card`, e.g. `card-D7`.
fn card_symbol(card: Card, ranks: u8) -> String {
    format!("card-{}", card.text(ranks))
}

fn card_content(card: Card, ranks: u8) -> Content {
    Content::Piece(card_symbol(card, ranks))
}

/// A public event as a line of text.
fn event_text(event: Event, ranks: u8) -> String {
    match event {
        Event::Ask {
            asker,
            target,
            card,
            held,
        } => format!(
            "player {asker} asked player {target} for {}: {}",
            card.text(ranks),
            if held { "given up" } else { "not held" }
        ),
        Event::Discard {
            player,
            card,
            stuck,
        } => format!(
            "player {player} discarded {}{}",
            card.text(ranks),
            if stuck { " (no legal ask)" } else { "" }
        ),
        Event::Draw { player } => format!("player {player} drew a card"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::symbol_uses;
    use crate::core::{ImperfectInformation, Notation, Viewer, rng_from_seed};
    use crate::games::fenrir_cards::FenrirCardsRules;
    use crate::testing::playout_states;

    /// Every state of `games` random games, from before the deal to the end.
    fn sample(rules: FenrirCardsRules, games: usize) -> Vec<FenrirCards> {
        playout_states(&FenrirCards::new(rules), games, 1000, 5)
    }

    fn all_rules() -> Vec<FenrirCardsRules> {
        [
            "players=2",
            "players=3",
            "players=4",
            "players=2,ranks=5,track=300",
        ]
        .iter()
        .map(|text| text.parse().unwrap())
        .collect()
    }

    #[test]
    fn the_picture_shows_every_hand_and_discard_of_the_state() {
        for rules in all_rules() {
            let ranks = rules.ranks();
            let states = sample(rules, 3);
            let first = states[0].picture();
            for state in &states {
                let picture = state.picture();
                assert!(picture.same_layout(&first), "{}", state.position_text());
                let open = picture.svg(Viewer::All);
                for card in CardSet::deck(ranks).iter() {
                    let held = (0..rules.players()).any(|p| state.hand(p).contains(card));
                    let shown = usize::from(held) + usize::from(state.discarded().contains(card));
                    assert_eq!(symbol_uses(&open, &card_symbol(card, ranks)), shown);
                }
                assert_eq!(symbol_uses(&open, HIDDEN_SYMBOL), 0);
                assert_eq!(
                    symbol_uses(&open, "pawn"),
                    usize::from(state.is_dealt()),
                    "{rules} {} {}",
                    state.pawn(),
                    state.position_text()
                );
                if state.is_dealt() {
                    let stock = format!(">stock: {} cards<", state.stock().len());
                    assert!(open.contains(&stock), "{stock}");
                    assert!(open.contains(&format!(">pawn on space {} of", state.pawn())));
                }
                for player in 0..rules.players() {
                    let own = picture.svg(Viewer::Player(player));
                    let others: u32 = (0..rules.players())
                        .filter(|&other| other != player)
                        .map(|other| state.hand(other).len())
                        .sum();
                    assert_eq!(symbol_uses(&own, HIDDEN_SYMBOL), others as usize);
                    for card in state.hand(player).iter() {
                        assert_eq!(symbol_uses(&own, &card_symbol(card, ranks)), 1);
                    }
                }
            }
        }
    }

    #[test]
    fn a_player_sees_the_same_picture_of_every_deal_it_cannot_tell_apart() {
        let mut rng = rng_from_seed(17);
        for rules in all_rules() {
            let mut differing = 0;
            for (index, state) in sample(rules, 2).iter().enumerate().step_by(3) {
                if !state.is_dealt() {
                    continue;
                }
                let player = index % rules.players();
                let observation = state.observation(player);
                let other = FenrirCards::determinize(&observation, &mut rng);
                let (mine, theirs) = (state.picture(), other.picture());
                assert_eq!(
                    mine.svg(Viewer::Player(player)),
                    theirs.svg(Viewer::Player(player)),
                    "{}",
                    state.position_text()
                );
                let hands_differ = (0..rules.players()).any(|p| state.hand(p) != other.hand(p));
                assert_eq!(
                    mine.svg(Viewer::All) != theirs.svg(Viewer::All),
                    hands_differ
                );
                differing += usize::from(hands_differ);
            }
            assert!(differing > 5, "too few deals told apart: {differing}");
        }
    }

    #[test]
    fn a_small_deal_is_drawn_card_by_card() {
        let rules: FenrirCardsRules = "players=3,ranks=2,track=10".parse().unwrap();
        let mut state = FenrirCards::from_position_text("L1,D1/L2,G1/D2,G2", rules).unwrap();
        for text in ["1:L2", "2:D2", "1:D2", "xD1"] {
            state.try_play(state.parse_move(text).unwrap()).unwrap();
        }
        let picture = state.picture();
        let content = |name: &str| {
            let slot = picture.slots.iter().find(|slot| slot.name == name);
            slot.unwrap().content.clone()
        };
        assert_eq!(
            content("hand of player 0, card 1"),
            card_content(Card(0), 2)
        );
        assert_eq!(content("hand of player 0, card 2"), Content::Empty);
        assert_eq!(
            content("hand of player 1, card 1"),
            Content::Piece("card-G1".into())
        );
        assert_eq!(content("discarded L2"), Content::Piece("card-L2".into()));
        assert_eq!(content("discarded L1"), Content::Empty);
        assert_eq!(content("track space 1"), Content::Piece("pawn".into()));
        assert_eq!(content("turn of player 1"), Content::Piece("turn".into()));
        assert_eq!(content("turn"), Content::Text("player 1 asks".into()));
        assert_eq!(
            content("last event"),
            Content::Text("player 0 discarded D1".into())
        );
        let seen_by_2 = picture.svg(Viewer::Player(2));
        assert_eq!(symbol_uses(&seen_by_2, HIDDEN_SYMBOL), 2);
        assert_eq!(symbol_uses(&seen_by_2, "card-G2"), 1);
    }

    #[test]
    fn a_draw_is_told_with_the_move_it_follows() {
        let rules: FenrirCardsRules = "players=2,ranks=3,hand=2".parse().unwrap();
        let mut state =
            FenrirCards::from_position_text("L1,L2/D1,D2:L3,D3,G1,G2,G3", rules).unwrap();
        for text in ["1:L3", "xL1"] {
            state.try_play(state.parse_move(text).unwrap()).unwrap();
        }
        let picture = state.picture();
        let slot = picture.slots.iter().find(|slot| slot.name == "last event");
        assert_eq!(
            slot.unwrap().content,
            Content::Text("player 0 discarded L1; player 1 drew a card".into())
        );
        assert!(picture.svg(Viewer::All).contains(">stock: 4 cards<"));
        // Player 1 holds D1, D2 and the L3 it drew: three backs for player 0.
        let seen_by_0 = picture.svg(Viewer::Player(0));
        assert_eq!(symbol_uses(&seen_by_0, HIDDEN_SYMBOL), 3);
    }
}
