//! The tafl engine against a slow reference written from the rules page
//! alone (common/reference_tafl.rs), over random playouts of every
//! variant and of rules strings that mix every key: the same legal moves,
//! the same captures of every legal move, the same positions and the same
//! endings. And Copenhagen as the family plays it against norn's own
//! Hnefatafl engine, an implementation of the same rules that shares no
//! code with it.

use crate::common::reference_tafl::{RefEnd, Reference};
use norn::core::{Game, GameRng, MoveList, Notation, rng_from_seed};
use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
use norn::games::tafl::{EndReason, RepetitionRule, Side, Tafl, TaflMove, TaflRules, VARIANTS};
use norn::rand::RngExt;

/// Rules strings that use the keys and pieces no variant uses, or not
/// together: fortresses of both sides, every kind of piece and jump,
/// speed limits per piece, both berserk modes, weak and flanking
/// shieldwalls, unusual hostility and passage lists.
const MIXED: &[&str] = &[
    "dim:7 name:Mix7 ka:a ks:m kj:j nj:c cj:r mj:c gj:j spd:3,2,-1,-1,2,1,-1,3,2,-1,-1,1, sw:w swf:n tfr:l ber:m afor:a4, dfor:d7, cenh:tcnkmgTCNKMG cenhe:TCNKMG corh:tK start:/2ctm2/3t3/1G1N1g1/tmTKMct/3T3/3n3/2tgt2/",
    "dim:9 name:Mix9 esc:e ks:c ka:h linc:y sw:s tfr:w dfor:d5,f5, dforp:TCNKMG dfors:K afor:e1,e9,a5,i5, aforre:t cenp:tT cens:K cenre: corh: start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/",
    "dim:9 name:Mix9b ks:w sw:s swf:n tfr:d ber:c nj:c cj:j mj:r start:/3tmt3/4g4/4N4/t3M3t/ttTCKTTtt/t3T3t/4G4/4c4/3ttt3/",
    "dim:11 name:Mix11 ks:m ka:n sw:w swf:n surf:n kj:c cor:a1,k1,a11,k11,b2,j10, start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    "dim:13 name:Mix13 esc:e ks:w sw:s swf:n cen: cor: spd:4 start:/4ttttt4/5t1t5/6t6/6T6/t3T3T3t/tt3TTT3tt/t1tT1TKT1Tt1t/tt3TTT3tt/t3T3T3t/6T6/6t6/5t1t5/4ttttt4/",
];

/// The engine's pieces square by square.
fn cells(state: &Tafl) -> Vec<Option<norn::games::tafl::Piece>> {
    (0..state.dim() * state.dim())
        .map(|index| state.piece_at(index))
        .collect()
}

/// The reference's ending of an engine's ending.
fn expected_end(state: &Tafl, reason: EndReason) -> Option<RefEnd> {
    Some(match reason {
        EndReason::Escape => RefEnd::Escape,
        EndReason::KingCaptured => RefEnd::KingCaptured,
        EndReason::Encirclement => RefEnd::Encirclement,
        EndReason::NoMoves => RefEnd::NoMoves,
        EndReason::Repetition => {
            let outcome = state.status().outcome().expect("over");
            RefEnd::Repetition(outcome.winner().map(Side::from_player))
        }
        EndReason::ExitFort | EndReason::PlyLimit => return None,
    })
}

/// What the comparisons saw.
#[derive(Default, Debug)]
struct Seen {
    states: usize,
    moves: usize,
    captures: usize,
    endings: Vec<EndReason>,
}

/// Plays `playouts` random games of `rules` in the engine and the
/// reference side by side, checking every state.
fn compare(rules: TaflRules, playouts: usize, seed: u64, seen: &mut Seen) {
    let string = rules.rules_string();
    let mut rng: GameRng = rng_from_seed(seed);
    let mut moves = MoveList::new();
    for _ in 0..playouts {
        let mut engine = Tafl::new(rules);
        let mut reference = Reference::new(
            string,
            rules.repetition == RepetitionRule::DefendersLose,
            cells(&engine),
            engine.side_to_move(),
            None,
        );
        while engine.ending().is_none() {
            let context = engine.position_text();
            engine.legal_moves(&mut moves);
            let mut listed: Vec<(usize, usize)> = moves
                .iter()
                .map(|mv| (usize::from(mv.from), usize::from(mv.to)))
                .collect();
            listed.sort_unstable();
            assert_eq!(listed, reference.moves(), "{} in {context}", string);
            for &(from, to) in &listed {
                let captures = engine.captures_of(TaflMove::new(from, to));
                let expected = reference.captures((from, to));
                assert_eq!(
                    (captures.squares.clone(), captures.king),
                    expected,
                    "{} by {} in {context}",
                    string,
                    engine.move_text(TaflMove::new(from, to))
                );
                seen.captures += usize::from(captures.any());
            }
            seen.states += 1;
            seen.moves += listed.len();
            let pick = listed[rng.random_range(0..listed.len())];
            engine.play(TaflMove::new(pick.0, pick.1));
            let end = reference.play(pick);
            assert_eq!(
                cells(&engine),
                reference.cells,
                "{string} after {pick:?} in {context}"
            );
            assert_eq!(engine.side_to_move(), reference.to_move, "{context}");
            assert_eq!(engine.berserk_square(), reference.berserk, "{context}");
            match engine.ending() {
                Some(EndReason::ExitFort) => {
                    seen.endings.push(EndReason::ExitFort);
                    break;
                }
                Some(EndReason::PlyLimit) => {
                    assert_eq!(end, None, "{context}");
                    seen.endings.push(EndReason::PlyLimit);
                }
                Some(reason) => {
                    assert_eq!(end, expected_end(&engine, reason), "{string}: {context}");
                    seen.endings.push(reason);
                }
                None => assert_eq!(end, None, "{string}: {context}"),
            }
        }
    }
}

#[test]
fn every_variant_moves_and_captures_as_the_reference_does() {
    let mut seen = Seen::default();
    for (index, variant) in VARIANTS.iter().enumerate() {
        let playouts = if variant.name == "alea-evangelii" {
            1
        } else {
            4
        };
        compare(
            TaflRules::variant(variant.name).unwrap(),
            playouts,
            index as u64,
            &mut seen,
        );
    }
    assert!(seen.states > 5_000, "{seen:?}");
    assert!(seen.captures > 1_000, "{seen:?}");
    for reason in [EndReason::Escape, EndReason::KingCaptured] {
        assert!(seen.endings.contains(&reason), "{reason:?} never: {seen:?}");
    }
}

#[test]
fn mixed_rules_move_and_capture_as_the_reference_does() {
    let mut seen = Seen::default();
    for (index, text) in MIXED.iter().enumerate() {
        let rules = TaflRules::from_rules_string(text).unwrap();
        compare(rules, 6, 100 + index as u64, &mut seen);
        let repeating: TaflRules = format!("repetition=defenders-lose,otn={text}")
            .parse()
            .unwrap();
        compare(repeating, 2, 200 + index as u64, &mut seen);
    }
    assert!(seen.states > 3_000, "{seen:?}");
    assert!(seen.captures > 500, "{seen:?}");
}

/// The family's Copenhagen with Copenhagen's own repetition rule is norn's
/// Hnefatafl: the same moves with the same captures, the same positions
/// and the same endings, edge forts included, in random games.
#[test]
fn copenhagen_plays_as_the_hnefatafl_engine() {
    let rules: TaflRules = "variant=copenhagen,repetition=defenders-lose"
        .parse()
        .unwrap();
    let mut rng: GameRng = rng_from_seed(47);
    let (mut tafl_moves, mut hnefatafl_moves) = (MoveList::new(), MoveList::new());
    let mut endings = Vec::new();
    for _ in 0..40 {
        let mut tafl = Tafl::new(rules);
        let mut hnefatafl = Hnefatafl::new(HnefataflRules::default());
        while !hnefatafl.status().is_over() {
            assert!(!tafl.status().is_over(), "{}", tafl.position_text());
            tafl.legal_moves(&mut tafl_moves);
            hnefatafl.legal_moves(&mut hnefatafl_moves);
            let mut texts: Vec<String> = tafl_moves.iter().map(|&mv| tafl.move_text(mv)).collect();
            let mut expected: Vec<String> = hnefatafl_moves
                .iter()
                .map(|&mv| hnefatafl.move_text(mv))
                .collect();
            texts.sort();
            expected.sort();
            assert_eq!(texts, expected, "{}", hnefatafl.position_text());
            let mv = hnefatafl_moves[rng.random_range(0..hnefatafl_moves.len())];
            let text = hnefatafl.move_text(mv);
            hnefatafl.play(mv);
            tafl.play(tafl.parse_move(&text).unwrap());
            assert_eq!(tafl.status(), hnefatafl.status(), "{text}");
        }
        endings.push(hnefatafl.ending().unwrap().name());
    }
    assert!(
        endings.contains(&"exit-fort") || endings.contains(&"escape"),
        "{endings:?}"
    );
}
