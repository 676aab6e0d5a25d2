//! Fenrir's Path: hand-built positions for each rule, perft against a slow
//! independent model of the rules, and the generic invariants.

use crate::common::moves::play;
use norn::core::{Game, MoveList, Notation, Status, Stochastic, rng_from_seed};
use norn::games::fenrir_path::{Colour, FenrirPath, FenrirPathMove, FenrirPathRules};
use norn::search::perft;
use norn::testing::{Budget, check_conformance};
use rand::RngExt;
use std::collections::BTreeSet;

const SORTED: &str = "RRRRRRBBBBBBGGGGGGYYYYYY:RBGY";

fn rules(text: &str) -> FenrirPathRules {
    text.parse().unwrap()
}

/// A position of the sorted deal (tiles 1-6 red, 7-12 blue, 13-18 green,
/// 19-24 yellow) with the given fields.
fn position(fields: &str) -> FenrirPath {
    position_with(FenrirPathRules::default(), fields)
}

fn position_with(rules: FenrirPathRules, fields: &str) -> FenrirPath {
    FenrirPath::from_position_text(&format!("{SORTED} {fields}"), rules)
        .unwrap_or_else(|error| panic!("{error}"))
}

fn god(letter: char) -> Colour {
    Colour::from_letter(letter).unwrap()
}

/// The tiles `letter`'s god can move to.
fn destinations(state: &FenrirPath, letter: char) -> Vec<u8> {
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    moves
        .iter()
        .filter(|mv| mv.god == god(letter))
        .map(|mv| mv.to)
        .collect()
}

fn reason(state: &FenrirPath) -> Option<&'static str> {
    state.status().outcome().map(|outcome| outcome.reason)
}

// ---------------------------------------------------------------- movement

#[test]
fn a_god_walks_to_either_neighbour() {
    let state = position("gods=R5,B10,G15,Y20 wolf=24");
    // Red: walks to 4 or 6; the long jump over blue (5 tiles away) would
    // land on green's tile 15, so it is blocked.
    assert_eq!(destinations(&state, 'R'), vec![4, 6]);
    // Blue: walks to 9 or 11, or jumps over red, 5 tiles back, onto Odin.
    assert_eq!(destinations(&state, 'B'), vec![0, 9, 11]);
}

#[test]
fn a_god_leapfrogs_an_adjacent_god_or_the_wolf() {
    let state = position("gods=R7,B8,G15,Y20 wolf=23");
    // Red over blue onto 9 (and no walk onto blue's tile).
    assert_eq!(destinations(&state, 'R'), vec![6, 9]);
    let state = position("gods=R5,B10,G15,Y22 wolf=23");
    // Yellow over the wolf onto 24.
    assert!(destinations(&state, 'Y').contains(&24));
}

#[test]
fn a_long_jump_lands_as_far_beyond_as_it_started_before() {
    let state = position("gods=R2,B5,G15,Y20 wolf=24");
    // Red jumps over blue from 3 tiles away and lands 3 beyond, on 8.
    assert_eq!(destinations(&state, 'R'), vec![1, 3, 8]);
    // Blue cannot jump back over red: 3 tiles beyond tile 2 is off the path.
    assert_eq!(destinations(&state, 'B'), vec![4, 6]);
}

#[test]
fn jumps_chain_in_one_direction_only() {
    // Red on 1: over blue (2) to 3, over green (4) to 5, over yellow (7, two
    // tiles away) to 9, over the wolf (12, three away) to 15.
    let state = position("gods=R1,B2,G4,Y7 wolf=12");
    assert_eq!(destinations(&state, 'R'), vec![0, 3, 5, 9, 15]);
    // Yellow on 7: back over green (3 away) would land on red's tile 1;
    // forwards it walks to 8 or jumps the wolf (5 away) to 17.
    assert_eq!(destinations(&state, 'Y'), vec![6, 8, 17]);
}

#[test]
fn blocked_jumps_are_not_moves() {
    // Landing tile occupied: red over blue (1 away) would land on green.
    let state = position("gods=R5,B6,G7,Y20 wolf=24");
    assert!(!destinations(&state, 'R').contains(&7));
    // A piece between the jumped piece and the landing tile: red over blue
    // (2 away) would land on 10, but green stands on 8.
    let state = position("gods=R4,B6,G8,Y20 wolf=24");
    assert_eq!(destinations(&state, 'R'), vec![3, 5]);
    // Beyond the end of the path: yellow over the wolf (3 away) would land on 26.
    let state = position("gods=R4,B6,G8,Y20 wolf=23");
    assert_eq!(destinations(&state, 'Y'), vec![19, 21]);
    // Two away it lands on 24, the last tile.
    let state = position("gods=R4,B6,G8,Y20 wolf=22");
    assert_eq!(destinations(&state, 'Y'), vec![19, 21, 24]);
}

#[test]
fn odin_holds_several_gods_and_counts_as_empty_for_landing() {
    let state = position("gods=R0,B1,G15,Y20 wolf=24");
    assert_eq!(destinations(&state, 'B'), vec![0, 2]);
    assert_eq!(
        destinations(&state, 'R'),
        vec![2],
        "red leapfrogs blue from Odin"
    );
    let strict = position_with(rules("odin-landing=off"), "gods=R0,B1,G15,Y20 wolf=24");
    assert_eq!(destinations(&strict, 'B'), vec![2]);
}

// ---------------------------------------------------------- collecting, wolf

#[test]
fn collecting_pushes_the_wolf_back_and_other_tiles_advance_it() {
    let mut state = position("gods=R5,B10,G15,Y20 wolf=22");
    play(&mut state, "R6");
    assert_eq!(state.collected(), 1 << 6);
    assert_eq!(state.wolf(), 23);
    play(&mut state, "B11");
    assert_eq!(state.wolf(), 24);
    play(&mut state, "Y19");
    assert_eq!(state.wolf(), 24, "the wolf never goes beyond the last tile");
    play(&mut state, "R7");
    assert_eq!(
        state.wolf(),
        22,
        "a tile of another colour lets the wolf advance two"
    );
}

#[test]
fn a_collected_tile_has_no_colour() {
    let mut state = position("gods=R5,B10,G15,Y20 wolf=22 collected=6");
    play(&mut state, "R6");
    assert_eq!(
        state.wolf(),
        20,
        "landing on a collected tile lets the wolf advance"
    );
    assert!(state.status().outcome().is_none());
}

#[test]
fn the_wolf_sends_the_god_where_it_stops_to_odin() {
    // Blue jumps back over red onto Odin: no tile collected.
    let mut state = position("gods=R5,B10,G15,Y20 wolf=22");
    play(&mut state, "B0");
    assert_eq!(state.wolf(), 20);
    assert_eq!(state.god_tile(god('Y')), 0, "yellow stood on 20");
}

#[test]
fn the_wolf_passing_over_a_god_does_nothing_by_default() {
    let mut state = position("gods=R5,B10,G15,Y21 wolf=22");
    play(&mut state, "B0");
    assert_eq!(state.wolf(), 20);
    assert_eq!(state.god_tile(god('Y')), 21);
    let mut swept = position_with(rules("wolf-sweeps=on"), "gods=R5,B10,G15,Y21 wolf=22");
    play(&mut swept, "B0");
    assert_eq!(swept.god_tile(god('Y')), 0);
}

#[test]
fn the_wolf_stepping_back_can_send_the_collector_home() {
    // Blue collects tile 11 next to the wolf on 10; the wolf steps back onto 11.
    let mut state = position("gods=R5,B12,G15,Y20 wolf=10");
    play(&mut state, "B11");
    assert_eq!(state.wolf(), 11);
    assert_eq!(state.god_tile(god('B')), 0);
    assert_eq!(state.collected(), 1 << 11);
}

#[test]
fn the_wolf_reaching_odin_ends_the_game() {
    // Red on a blue tile steps onto another blue tile.
    let mut state = position("gods=R7,B10,G15,Y20 wolf=2");
    play(&mut state, "R8");
    assert_eq!(state.wolf(), 0);
    assert_eq!(reason(&state), Some("wolf-reached-odin"));
    assert_eq!(state.status().outcome().unwrap().payoffs.get(0), 0.0);
    let mut state = position("gods=R7,B10,G15,Y20 wolf=1");
    play(&mut state, "R8");
    assert_eq!(
        reason(&state),
        Some("wolf-reached-odin"),
        "the wolf stops at Odin"
    );
}

#[test]
fn the_third_complete_set_wins() {
    // Red and blue complete, green missing tile 18.
    let collected = "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17";
    let mut state = position(&format!("gods=R0,B1,G17,Y20 wolf=3 collected={collected}"));
    assert_eq!(state.complete_sets(), 2);
    assert!(!state.status().is_over(), "two sets are not enough");
    play(&mut state, "G18");
    assert_eq!(reason(&state), Some("fenrir-bound"));
    assert_eq!(state.status().outcome().unwrap().payoffs.get(0), 1.0);
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert!(
        state
            .try_play(FenrirPathMove {
                god: god('R'),
                to: 2
            })
            .is_err()
    );
}

// -------------------------------------------------------------- turn order

#[test]
fn free_turn_order_names_another_god() {
    let mut state = position("gods=R5,B10,G15,Y20 wolf=24");
    play(&mut state, "R6");
    assert!(destinations(&state, 'R').is_empty());
    let error = state.parse_move("R7").unwrap_err().to_string();
    assert!(error.contains("must name another god"), "{error}");
    let mut again = position_with(rules("repeat-mover=on"), "gods=R5,B10,G15,Y20 wolf=24");
    play(&mut again, "R6");
    // Red walks, or jumps blue (4 away) to 14 and on over green to 16.
    assert_eq!(destinations(&again, 'R'), vec![5, 7, 14, 16]);
}

#[test]
fn fixed_turn_order_rotates_and_skips_a_stuck_god() {
    let fixed = rules("turn-order=fixed");
    let mut state = position_with(fixed, "gods=R5,B10,G15,Y20 wolf=24");
    assert!(
        destinations(&state, 'B').is_empty(),
        "red starts the rotation"
    );
    play(&mut state, "R6");
    let error = state.parse_move("G14").unwrap_err().to_string();
    assert!(error.contains("blue's turn"), "{error}");
    play(&mut state, "B11");
    play(&mut state, "G14");
    play(&mut state, "Y21");
    assert_eq!(destinations(&state, 'R'), vec![5, 7]);
    // Red on 24 behind green on 23 and yellow on 22 can neither walk nor
    // jump (the landing tile 22 is taken): after yellow, blue moves.
    let stuck = position_with(fixed, "gods=R24,B5,G23,Y22 wolf=10 last=Y");
    assert!(destinations(&stuck, 'R').is_empty());
    assert_eq!(
        destinations(&stuck, 'B'),
        vec![4, 6, 15],
        "15: over the wolf"
    );
    let blocked = position_with(
        rules("turn-order=fixed,stuck-god=block"),
        "gods=R24,B5,G23,Y22 wolf=10 last=Y",
    );
    assert_eq!(reason(&blocked), Some("no-moves"));
}

#[test]
fn no_legal_move_loses_or_passes() {
    // Two colours of two tiles: path 1..4, gods start on 1 and 2.
    let small = "colours=2,tiles-per-colour=2,sets=2,spacing=1";
    let text = "RRBB:RB gods=R3,B4 wolf=2 last=R";
    // Blue on 4 is boxed in by red on 3 and the wolf on 2; red moved last.
    let state = FenrirPath::from_position_text(text, rules(small)).unwrap();
    assert_eq!(reason(&state), Some("no-moves"));
    let passing =
        FenrirPath::from_position_text(text, rules(&format!("{small},no-moves=pass"))).unwrap();
    // The lost turn moves the wolf onto Odin.
    assert_eq!(reason(&passing), Some("wolf-reached-odin"));
    // Six tiles: blue on 6 is boxed in by red on 5 and the wolf on 4. The
    // lost turn moves the wolf to 2, and then red may move again.
    let text = "RRRBBB:RB gods=R5,B6 wolf=4 last=R";
    let passing = FenrirPath::from_position_text(
        text,
        rules("colours=2,tiles-per-colour=3,sets=2,spacing=2,no-moves=pass"),
    )
    .unwrap();
    assert_eq!(reason(&passing), None);
    assert_eq!(passing.wolf(), 2);
    assert_eq!(destinations(&passing, 'R'), vec![4]);
}

// ----------------------------------------------------- slow independent model

/// The rules written out as plainly as possible, from the rules page alone:
/// a list of pieces per tile, every possible jump length tried.
#[derive(Clone, Debug)]
struct SlowPath {
    rules: FenrirPathRules,
    colour: Vec<Option<usize>>,
    collected: Vec<bool>,
    gods: Vec<usize>,
    wolf: usize,
    last: Option<usize>,
    over: Option<bool>,
}

impl SlowPath {
    fn from(state: &FenrirPath) -> SlowPath {
        let rules = *state.rules();
        let tiles = rules.last_tile() as usize;
        SlowPath {
            rules,
            colour: (0..=tiles as u8)
                .map(|tile| state.tile_colour(tile).map(|c| c as usize))
                .collect(),
            collected: (0..=tiles)
                .map(|tile| state.collected() & (1 << tile) != 0)
                .collect(),
            gods: state
                .colours()
                .map(|c| state.god_tile(c) as usize)
                .collect(),
            wolf: state.wolf() as usize,
            last: state.last_mover().map(|c| c as usize),
            over: state.ending().map(|end| end.is_win()),
        }
    }

    fn last_tile(&self) -> usize {
        self.colour.len() - 1
    }

    /// Whether a god other than `mover`, or the wolf, stands on `tile`.
    fn has_piece(&self, tile: usize, mover: usize) -> bool {
        self.wolf == tile || (0..self.gods.len()).any(|g| g != mover && self.gods[g] == tile)
    }

    fn can_land(&self, tile: usize, mover: usize) -> bool {
        if tile == 0 {
            self.rules.odin_landing() || !self.has_piece(0, mover)
        } else {
            !self.has_piece(tile, mover)
        }
    }

    fn destinations(&self, mover: usize) -> BTreeSet<usize> {
        let mut out = BTreeSet::new();
        let from = self.gods[mover] as i64;
        let last = self.last_tile() as i64;
        for step in [-1i64, 1] {
            let walk = from + step;
            if (0..=last).contains(&walk) && self.can_land(walk as usize, mover) {
                out.insert(walk as usize);
            }
            // Every chain of jumps in this direction, trying every distance.
            let mut frontier = vec![from];
            while let Some(at) = frontier.pop() {
                for distance in 1..=last {
                    let jumped = at + step * distance;
                    let landing = jumped + step * distance;
                    if !(0..=last).contains(&landing) || !(1..=last).contains(&jumped) {
                        continue;
                    }
                    let between_empty =
                        (1..distance).all(|k| !self.has_piece((at + step * k) as usize, mover));
                    let beyond_empty =
                        (1..distance).all(|k| !self.has_piece((jumped + step * k) as usize, mover));
                    if self.has_piece(jumped as usize, mover)
                        && between_empty
                        && beyond_empty
                        && self.can_land(landing as usize, mover)
                        && out.insert(landing as usize)
                    {
                        frontier.push(landing);
                    }
                }
            }
        }
        out
    }

    fn movable(&self) -> Vec<usize> {
        let n = self.gods.len();
        let can_move = |g: usize| !self.destinations(g).is_empty();
        if self.rules.turn_order() == norn::games::fenrir_path::TurnOrder::Fixed {
            let first = self.last.map_or(0, |l| (l + 1) % n);
            let skip = self.rules.stuck_god() == norn::games::fenrir_path::StuckGod::Skip;
            for k in 0..n {
                let g = (first + k) % n;
                if can_move(g) {
                    return vec![g];
                }
                if !skip {
                    return vec![];
                }
            }
            return vec![];
        }
        (0..n)
            .filter(|&g| self.rules.repeat_mover() || Some(g) != self.last)
            .filter(|&g| can_move(g))
            .collect()
    }

    fn moves(&self) -> Vec<(usize, usize)> {
        if self.over.is_some() {
            return vec![];
        }
        self.movable()
            .into_iter()
            .flat_map(|g| self.destinations(g).into_iter().map(move |to| (g, to)))
            .collect()
    }

    fn wolf_to(&mut self, tile: usize) {
        self.wolf = tile;
        if tile > 0 {
            for g in 0..self.gods.len() {
                if self.gods[g] == tile {
                    self.gods[g] = 0;
                }
            }
        }
    }

    fn advance(&mut self) {
        let from = self.wolf;
        let to = from.saturating_sub(2);
        if self.rules.wolf_sweeps() && to > 0 {
            for tile in to + 1..from {
                for g in 0..self.gods.len() {
                    if self.gods[g] == tile {
                        self.gods[g] = 0;
                    }
                }
            }
        }
        self.wolf_to(to);
        if to == 0 {
            self.over = Some(false);
        }
    }

    fn play(&mut self, (g, to): (usize, usize)) {
        self.gods[g] = to;
        self.last = Some(g);
        if self.colour[to] == Some(g) && !self.collected[to] {
            self.collected[to] = true;
            let complete = (0..self.gods.len())
                .filter(|&c| {
                    (1..=self.last_tile()).all(|t| self.colour[t] != Some(c) || self.collected[t])
                })
                .count();
            if complete >= self.rules.sets_to_win() as usize {
                self.over = Some(true);
                return;
            }
            let back = (self.wolf + 1).min(self.last_tile());
            self.wolf_to(back);
        } else {
            self.advance();
        }
        while self.over.is_none() && self.moves().is_empty() {
            if self.rules.no_moves() == norn::games::fenrir_path::NoMoves::Lose {
                self.over = Some(false);
            } else {
                self.advance();
                if self.over.is_none()
                    && self.rules.turn_order() == norn::games::fenrir_path::TurnOrder::Free
                {
                    self.last = None;
                }
            }
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|mv| {
                let mut child = self.clone();
                child.play(mv);
                child.perft(depth - 1)
            })
            .sum()
    }

    fn key(&self) -> (Vec<usize>, usize, Vec<bool>, Option<usize>, Option<bool>) {
        (
            self.gods.clone(),
            self.wolf,
            self.collected.clone(),
            self.last,
            self.over,
        )
    }
}

fn fast_moves(state: &FenrirPath) -> Vec<(usize, usize)> {
    let mut moves = MoveList::new();
    state.legal_moves(&mut moves);
    let mut out: Vec<(usize, usize)> = moves
        .iter()
        .map(|mv| (mv.god as usize, mv.to as usize))
        .collect();
    out.sort_unstable();
    out
}

/// Rule variants the slow model is compared under.
const VARIANTS: [&str; 7] = [
    "",
    "turn-order=fixed",
    "turn-order=fixed,stuck-god=block",
    "repeat-mover=on,odin-landing=off",
    "wolf-sweeps=on,no-moves=pass",
    "colours=2,tiles-per-colour=3,sets=2,spacing=2",
    "colours=3,tiles-per-colour=4,sets=2,spacing=3,turn-order=fixed,no-moves=pass",
];

#[test]
fn perft_from_fixed_deals_matches_the_slow_model() {
    let deals = [
        SORTED,
        "GBRRBYBYRRBGGBYRBYGRGYYG:RYBG",
        "RGBBRGRGGYBYGGYRYBYYBRBR:GRBY",
    ];
    let mut table = Vec::new();
    for deal in deals {
        for variant in ["", "turn-order=fixed"] {
            let state = FenrirPath::from_position_text(deal, rules(variant)).unwrap();
            let slow = SlowPath::from(&state);
            let depth = if variant.is_empty() { 4 } else { 6 };
            let counts: Vec<u64> = (1..=depth).map(|d| perft(&state, d)).collect();
            let slow_counts: Vec<u64> = (1..=depth).map(|d| slow.perft(d)).collect();
            assert_eq!(counts, slow_counts, "{deal} {variant}");
            table.push(counts);
        }
    }
    // The sorted deal's first plies, worked out by hand: red 4/6, blue
    // 0/9/11, green 14/16, yellow 19/21.
    assert_eq!(table[0][0], 9);
}

#[test]
fn random_playouts_agree_with_the_slow_model_move_by_move() {
    let mut rng = rng_from_seed(7);
    for variant in VARIANTS {
        let rules = rules(variant);
        for _ in 0..30 {
            let mut state = FenrirPath::new(rules);
            state.resolve_chance(&mut rng);
            let mut slow = SlowPath::from(&state);
            loop {
                let mut expected = slow.moves();
                expected.sort_unstable();
                assert_eq!(
                    fast_moves(&state),
                    expected,
                    "{variant}: {}",
                    state.position_text()
                );
                if expected.is_empty() {
                    assert!(state.status().is_over());
                    break;
                }
                let mv = expected[rng.random_range(0..expected.len())];
                state.play(FenrirPathMove {
                    god: Colour::from_index(mv.0),
                    to: mv.1 as u8,
                });
                slow.play(mv);
                assert_eq!(SlowPath::from(&state).key(), slow.key(), "{variant}");
            }
        }
    }
}

// -------------------------------------------------------------- invariants

#[test]
fn dealt_states_pass_the_generic_invariants() {
    for (index, variant) in VARIANTS.iter().enumerate() {
        let mut state = FenrirPath::new(rules(variant));
        assert_eq!(state.status(), Status::Chance);
        state.resolve_chance(&mut rng_from_seed(index as u64));
        check_conformance(
            &state,
            &Budget {
                playouts: 10,
                max_plies: 200,
                plies_per_state: usize::MAX,
                searched_positions: 0,
                seed: index as u64,
            },
        );
    }
}

#[test]
fn deals_are_uniform_over_god_orders() {
    // Each of the 24 god orders should turn up about 1/24 of the time.
    let rules = FenrirPathRules::default();
    let mut counts = std::collections::HashMap::new();
    let mut rng = rng_from_seed(11);
    let draws = 4800;
    for _ in 0..draws {
        let mut state = FenrirPath::new(rules);
        state.resolve_chance(&mut rng);
        *counts.entry(state.deal().gods).or_insert(0u32) += 1;
    }
    assert_eq!(counts.len(), 24);
    // Chi-squared with 23 degrees of freedom; 49.7 is the 0.1% critical value.
    let expected = f64::from(draws) / 24.0;
    let chi2: f64 = counts
        .values()
        .map(|&c| (f64::from(c) - expected).powi(2) / expected)
        .sum();
    assert!(chi2 < 49.7, "chi-squared {chi2}");
}

#[test]
fn sizes_out_of_range_are_refused_with_their_reason() {
    // 4 gods 64 tiles apart would stand on tile 256, and 4 colours of 70
    // tiles make 280: neither fits the path's tile numbers.
    for (text, expected) in [
        ("spacing=64", "`spacing` 64 puts the last god on tile 256"),
        ("spacing=128", "tile 512"),
        ("spacing=0", "`spacing` must be from 1 to 255, not 0"),
        ("tiles-per-colour=70", "4 colours of 70 is 280"),
        ("colours=4,tiles-per-colour=255", "is 1020"),
    ] {
        let error = text.parse::<FenrirPathRules>().unwrap_err().to_string();
        assert!(error.contains(expected), "{text}: {error}");
    }
}
