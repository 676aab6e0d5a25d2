//! The conformance suite over every registered game, with the same budget
//! for each: deleting a game's registry line is the only way to skip it.
//! The small simultaneous-move game of the tests runs through it too.

use crate::common::goofspiel::{Goofspiel, GoofspielRules, PrizeOrder};
use norn::core::{Capabilities, Game, Status};
use norn::registry::{self, GameVisitor, Registered};
use norn::testing::{Budget, check_conformance};

/// Runs the suite on a game's start under its default rules.
struct Conformance;

impl GameVisitor for Conformance {
    type Output = &'static str;

    fn visit<G: Registered>(&mut self) -> &'static str {
        let coverage = check_conformance(&G::new(G::Rules::default()), &Budget::SUITE);
        assert!(coverage.states > 40, "{}: {coverage:?}", G::NAME);
        let capabilities = Capabilities::of::<G>();
        if !capabilities.hidden_information && !capabilities.simultaneous_moves {
            // The searchers were compared on some positions of every game
            // they can search.
            assert!(
                coverage.searched > 0 && coverage.decided > 0,
                "{}: {coverage:?}",
                G::NAME
            );
        }
        G::NAME
    }
}

#[test]
fn every_registered_game_passes_the_conformance_suite() {
    let checked = registry::visit_all(&mut Conformance);
    let names: Vec<&str> = registry::games()
        .iter()
        .filter(|game| !game.is_variant())
        .map(|game| game.name)
        .collect();
    assert_eq!(checked, names);
}

/// Runs the suite on a game's start under the rules of one of its variants.
struct VariantConformance<'a>(&'a str);

impl GameVisitor for VariantConformance<'_> {
    type Output = ();

    fn visit<G: Registered>(&mut self) {
        let rules: G::Rules = self.0.parse().unwrap();
        let coverage = check_conformance(&G::new(rules), &Budget::SUITE);
        assert!(coverage.states > 40, "{}: {coverage:?}", self.0);
        assert!(
            coverage.searched > 0 && coverage.decided > 0,
            "{}: {coverage:?}",
            self.0
        );
    }
}

#[test]
fn every_variant_passes_the_conformance_suite() {
    let mut checked = 0;
    for game in registry::games().iter().filter(|game| game.is_variant()) {
        let (base, rules) = registry::resolve_in::<registry::BuiltIn>(game.name, None)
            .unwrap()
            .unwrap();
        assert_eq!(base, game.game);
        registry::visit(base, &mut VariantConformance(&rules)).unwrap();
        checked += 1;
    }
    assert!(checked >= 14, "{checked} variants");
}

/// The registry's entries agree with the games: names, sides and counts.
struct Entry;

impl GameVisitor for Entry {
    type Output = ();

    fn visit<G: Registered>(&mut self) {
        let start = G::new(G::Rules::default());
        let info = registry::find(G::NAME).unwrap();
        assert_eq!(info.capabilities, Capabilities::of::<G>());
        if !G::SIDES.is_empty() {
            assert_eq!(start.num_players(), G::SIDES.len(), "{}", G::NAME);
            for (player, &side) in G::SIDES.iter().enumerate() {
                assert_eq!(start.player_name(player), side, "{}", G::NAME);
            }
        }
        // A game that starts with a deal says it has chance events.
        if start.status() == Status::Chance {
            assert!(info.capabilities.chance, "{}", G::NAME);
        }
        // Every preset builds on its game, and each kind has one at most.
        let presets = norn::agents::best_settings::<G>();
        for (index, &(kind, _)) in presets.iter().enumerate() {
            let spec = format!("{kind}:preset=best");
            if let Err(error) = registry::build_agent::<G>(&spec, 1) {
                panic!("{}: `{spec}`: {error}", G::NAME);
            }
            assert!(
                presets[..index].iter().all(|&(seen, _)| seen != kind),
                "{}: two presets for {kind}",
                G::NAME
            );
        }
    }
}

#[test]
fn registry_entries_describe_their_games() {
    registry::visit_all(&mut Entry);
    let error = registry::find("chess").unwrap_err().to_string();
    assert!(error.contains("unknown game `chess`") && error.contains("hnefatafl"));
}

#[test]
fn a_simultaneous_game_passes_the_conformance_suite() {
    for order in [PrizeOrder::Descending, PrizeOrder::Random] {
        for cards in [1, 4, 6] {
            let rules = GoofspielRules { cards, order };
            let coverage = check_conformance(&Goofspiel::new(rules), &Budget::SUITE);
            assert!(coverage.states >= 4 * (cards as usize + 1), "{coverage:?}");
        }
    }
    let capabilities = Capabilities::of::<Goofspiel>();
    assert!(capabilities.simultaneous_moves && capabilities.chance);
    assert!(!capabilities.hidden_information);
}
