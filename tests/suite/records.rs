//! Game records in other programs' formats: Stealth Chess games as PGN that
//! a chess library reads, OpenTafl records written and read back, the CSV
//! records of the shared data imported, and `norn replay --export`.

use crate::common::cli::{norn, stdout};
use norn::arena::{RecordedGame, RecordedResult};
use norn::core::{Game, MoveList, Notation, Ply, rng_from_seed};
use norn::games::hnefatafl::opentafl;
use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
use norn::games::stealth_chess::pgn::{self, PgnResult};
use norn::games::stealth_chess::{StealthChess, StealthChessRules};
use norn::registry::Registered;
use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use rand::RngExt;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus as ShakmatySanPlus;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
use std::ops::ControlFlow;
use std::path::Path;

const CSV: &str = include_str!("../data/copenhagen-games.csv");

/// Chess positions as 8-file FENs: the start, the perft positions of the
/// chess programming community (castling, promotions, en passant, pins)
/// and positions with an en passant square and Black to move.
const CHESS_FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 40",
];

/// Uniformly random moves from `start` until the game ends or `plies`
/// were played.
fn random_moves<G: Game>(start: &G, seed: u64, plies: usize) -> Vec<G::Move> {
    let mut rng = rng_from_seed(seed);
    let mut state = start.clone();
    let mut moves = MoveList::new();
    let mut played = Vec::new();
    while played.len() < plies && state.status().player_to_move().is_some() {
        state.legal_moves(&mut moves);
        let mv = moves[rng.random_range(0..moves.len())];
        state.play(mv);
        played.push(mv);
    }
    played
}

/// A game of `moves` from `start` as a record, with its result.
fn record<G: Game>(start: &G, moves: &[G::Move], number: usize) -> RecordedGame<G> {
    let mut end = start.clone();
    for &mv in moves {
        end.play(mv);
    }
    let (result, reason) = match end.status().outcome() {
        Some(outcome) => (
            outcome
                .winner()
                .map_or(RecordedResult::Draw, RecordedResult::Win),
            Some(outcome.reason.to_string()),
        ),
        None => (RecordedResult::Unfinished, None),
    };
    RecordedGame {
        number,
        start: start.clone(),
        plies: moves.iter().map(|&mv| Ply::Move(mv)).collect(),
        chance_seed: 0,
        opening_plies: 0,
        players: vec!["random".into(), "random".into()],
        seed: Some(number as u64),
        result,
        reason,
        note: None,
    }
}

/// The text a game's format of `name` writes.
fn export<G: Registered>(name: &str, game: &RecordedGame<G>) -> String {
    let format = G::export_formats()
        .into_iter()
        .find(|format| format.name == name)
        .expect("the game writes the format");
    (format.write)(game).expect("the game is written")
}

/// What a chess library makes of a PGN file: per game, the SAN of each
/// move as the library writes it, the final position's FEN and the
/// result, or the first error.
struct ChessReplay;

struct Movetext {
    position: Chess,
    canonical_san: Vec<String>,
    written_san: Vec<String>,
    error: Option<String>,
}

impl Visitor for ChessReplay {
    type Tags = Option<Chess>;
    type Movetext = Movetext;
    type Output = Result<(Vec<String>, Vec<String>, String), String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        if name == b"FEN" {
            let position = Fen::from_ascii(value.as_bytes())
                .map_err(|error| error.to_string())
                .and_then(|fen| {
                    fen.into_position(CastlingMode::Standard)
                        .map_err(|error| error.to_string())
                });
            match position {
                Ok(position) => *tags = Some(position),
                Err(error) => return ControlFlow::Break(Err(format!("FEN tag: {error}"))),
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(Movetext {
            position: tags.unwrap_or_default(),
            canonical_san: Vec::new(),
            written_san: Vec::new(),
            error: None,
        })
    }

    fn san(&mut self, movetext: &mut Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        match san_plus.san.to_move(&movetext.position) {
            Ok(mv) => {
                let canonical = ShakmatySanPlus::from_move(movetext.position.clone(), mv);
                movetext.canonical_san.push(canonical.to_string());
                movetext.written_san.push(san_plus.to_string());
                movetext.position.play_unchecked(mv);
                ControlFlow::Continue(())
            }
            Err(error) => {
                movetext.error = Some(format!("{san_plus}: {error}"));
                ControlFlow::Break(Err(movetext.error.clone().unwrap_or_default()))
            }
        }
    }

    fn end_game(&mut self, movetext: Movetext) -> Self::Output {
        if let Some(error) = movetext.error {
            return Err(error);
        }
        let fen = Fen::from_position(&movetext.position, EnPassantMode::PseudoLegal);
        Ok((
            movetext.written_san,
            movetext.canonical_san,
            fen.to_string(),
        ))
    }
}

#[test]
fn chess_pgn_of_random_games_reads_back_in_a_chess_library_to_the_same_position() {
    let mut games = 0;
    let mut plies = 0;
    for (index, fen) in CHESS_FENS.iter().enumerate() {
        let start = StealthChess::from_position_text(fen, StealthChessRules::default())
            .expect("a chess FEN reads");
        for seed in 0..6 {
            let moves = random_moves(&start, seed * 100 + index as u64, 300);
            let game = record(&start, &moves, index);
            let text = export("pgn", &game);
            assert!(!text.contains("Variant"), "{text}");
            assert_eq!(text.contains("[FEN"), index != 0, "{text}");
            let mut reader = Reader::new(text.as_bytes());
            let (written, canonical, final_fen) = reader
                .read_game(&mut ChessReplay)
                .expect("the text reads")
                .expect("one game")
                .unwrap_or_else(|error| panic!("{error}\n{text}"));
            assert_eq!(written.len(), moves.len(), "{text}");
            // The SAN is the library's own: disambiguation and check marks
            // included.
            assert_eq!(written, canonical, "{text}");
            let mut end = start.clone();
            for &mv in &moves {
                end.play(mv);
            }
            assert_eq!(final_fen, pgn::chess_fen(&end), "{text}");
            games += 1;
            plies += moves.len();
        }
    }
    assert_eq!(games, 48);
    assert!(plies > 3000, "{plies} plies");
}

#[test]
fn chess_pgn_names_a_result_and_castles_as_chess_does() {
    let start = StealthChess::from_position_text(
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        StealthChessRules::default(),
    )
    .unwrap();
    let mut state = start.clone();
    let mut moves = Vec::new();
    // The king's castling move, on the 10-file board: f1 to h1.
    for text in ["f1h1", "f8d8"] {
        let mv = state.parse_move(text).unwrap();
        state.play(mv);
        moves.push(mv);
    }
    let game = record(&start, &moves, 7);
    let text = export("pgn", &game);
    assert!(
        text.contains("[Result \"*\"]\n[Termination \"unterminated\"]\n[SetUp \"1\"]\n[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]"),
        "{text}"
    );
    assert!(text.ends_with("\n1. O-O O-O-O *\n\n"), "{text}");
}

#[test]
fn stealth_chess_pgn_keeps_the_slurks_and_reads_back() {
    let start = StealthChess::new(StealthChessRules::default());
    let mut all = String::new();
    let mut expected = Vec::new();
    for seed in 0..8 {
        let moves = random_moves(&start, seed, 250);
        let game = record(&start, &moves, seed as usize);
        all.push_str(&export("pgn", &game));
        expected.push(moves);
    }
    assert!(all.contains(
        "[Variant \"Stealth Chess\"]\n[SetUp \"1\"]\n[FEN \"arnbqkbnra/1pppppppp1/10/10/10/10/1PPPPPPPP1/ARNBQKBNRA w KQkq - 0 1\"]\n[Slurks \"a1:a1:0,j1:j1:0,a8:a8:0,j8:j8:0\"]"
    ));
    // Assassins' moves name both squares.
    assert!(all.contains(" Aa1-a2") || all.contains(" Aj1-j2") || all.contains("1. Aa1-a2"));
    let games = pgn::read_games(&all, StealthChessRules::default()).unwrap();
    assert_eq!(games.len(), expected.len());
    for (game, moves) in games.iter().zip(&expected) {
        assert_eq!(game.start, start);
        assert_eq!(&game.moves, moves);
    }
    // From a position with Assassins in the Slurks mid-way.
    let mut middle = start.clone();
    for mv in random_moves(&start, 99, 30) {
        middle.play(mv);
    }
    let middle =
        StealthChess::from_position_text(&middle.position_text(), StealthChessRules::default())
            .unwrap();
    let moves = random_moves(&middle, 5, 120);
    let text = export("pgn", &record(&middle, &moves, 1));
    let read = pgn::read_games(&text, StealthChessRules::default()).unwrap();
    assert_eq!(read[0].start.position_text(), middle.position_text());
    assert_eq!(read[0].moves, moves);
}

#[test]
fn pgn_refuses_illegal_moves_and_bad_tags_with_errors() {
    let rules = StealthChessRules::default();
    for (text, problem) in [
        ("1. e5 *\n", "no legal move"),
        ("[Event \"x\n\n1. e4 *\n", "tag"),
        ("[FEN \"8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n", "game at line 1"),
        ("1. e4 {never closed\n", "comment"),
        ("1. e4 } e5 *\n", "outside a comment"),
    ] {
        let error = pgn::read_games(text, rules).unwrap_err().to_string();
        assert!(error.contains(problem), "{text:?}: {error}");
    }
    let games = pgn::read_games("1. e4 e5 2. Nf3 (2. f4 exf4) Nc6 $1 {good} 1-0\n", rules).unwrap();
    assert_eq!(games[0].moves.len(), 4);
    assert_eq!(games[0].result, PgnResult::WhiteWon);
}

#[test]
fn opentafl_records_of_random_games_read_back_to_the_same_moves() {
    let rules = HnefataflRules::default();
    let start = Hnefatafl::start(rules);
    let mut all = String::new();
    let mut expected = Vec::new();
    for seed in 0..20 {
        let moves = random_moves(&start, seed, 400);
        all.push_str(&export("opentafl", &record(&start, &moves, seed as usize)));
        expected.push(moves);
    }
    let games = opentafl::read_games(&all, rules).unwrap();
    assert_eq!(games.len(), expected.len());
    for (game, moves) in games.iter().zip(&expected) {
        assert_eq!(game.start, start);
        assert_eq!(&game.moves, moves);
    }
}

#[test]
fn the_real_records_go_through_opentafl_and_back_unchanged() {
    let rules = HnefataflRules::default();
    let csv = Hnefatafl::import_formats()
        .into_iter()
        .find(|format| format.name == "csv")
        .unwrap();
    let games = (csv.read)(CSV, &rules).unwrap();
    assert_eq!(games.len(), 876);
    // The same totals as `norn replay` finds in the records: 43,985 moves
    // replay, and six games end early by repetition.
    let plies: usize = games.iter().map(|game| game.plies.len()).sum();
    assert_eq!(plies, 43_985);
    let notes: Vec<&str> = games
        .iter()
        .filter_map(|game| game.note.as_deref())
        .collect();
    assert_eq!(notes.len(), 6);
    assert!(notes.iter().all(|note| note.contains("ends by repetition")));
    let text: String = games.iter().map(|game| export("opentafl", game)).collect();
    // The first record: `h1-h3 f8-i8 f10-i10 d6-d3`, Ongoing.
    assert!(
        text.starts_with(
            "[event:norn game 1]\n[result:?]\n[compiler:norn]\n\
             [rules:dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y \
             start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/]\n\n\
             1. h1-h3 f8-i8\n2. f10-i10 d6-d3\n\n"
        ),
        "{}",
        &text[..400]
    );
    // Captures joined by `/`: the second record's last move, a8-b8xb7.
    assert!(text.contains("4. a8-b8xb7\n"), "{}", &text[..800]);
    let opentafl = Hnefatafl::import_formats()
        .into_iter()
        .find(|format| format.name == "opentafl")
        .unwrap();
    let back = (opentafl.read)(&text, &rules).unwrap();
    assert_eq!(back.len(), games.len());
    for (read, game) in back.iter().zip(&games) {
        assert_eq!(read.plies, game.plies, "game {}", game.number);
        assert_eq!(read.result, game.result, "game {}", game.number);
    }
}

#[test]
fn opentafl_reads_king_moves_commentary_and_variations() {
    let rules = HnefataflRules::default();
    let text = "[event:hand-written]\n[result:?]\n\
        [rules:dim:11 name:Copenhagen atkf:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/]\n\n\
        1. h1-h3 f4-i4 \n[|]\n\n\
        2a.1.1a. d1-d3 f6-f4\n\
        2. k8-i8 f5-f4\n\
        3. a4-b4 Kf6-f5- \n";
    let games = opentafl::read_games(text, rules).unwrap();
    assert_eq!(games.len(), 1);
    let written: Vec<String> = {
        let mut state = games[0].start.clone();
        games[0]
            .moves
            .iter()
            .map(|&mv| {
                let text = state.move_text(mv);
                state.play(mv);
                text
            })
            .collect()
    };
    assert_eq!(
        written,
        ["h1-h3", "f4-i4", "k8-i8", "f5-f4", "a4-b4", "f6-f5"]
    );
    assert_eq!(games[0].tag("event"), Some("hand-written"));
    for (bad, problem) in [
        ("[rules:dim:9 start:/9/]\n1. a1-a2\n", "9x9"),
        ("1. h1-h3\n", "no rules string"),
        (&text.replace("h1-h3", "h1-h2xh5")[..], "captures"),
        (&text.replace("h1-h3", "h1-a1")[..], "line 5"),
    ] {
        let error = opentafl::read_games(bad, rules).unwrap_err().to_string();
        assert!(error.contains(problem), "{bad:?}: {error}");
    }
}

/// A scratch directory for one test, emptied first.
fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn replay_exports_a_log_as_text_and_as_the_game_formats() {
    let dir = scratch_dir("records-export");
    let out = dir.to_str().unwrap();
    let run = norn(&[
        "tournament",
        "hnefatafl",
        "--agents",
        "random",
        "greedy",
        "--games",
        "2",
        "--seed",
        "5",
        "--out",
        out,
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let log = dir.join("games.jsonl");
    let log = log.to_str().unwrap();
    let text = norn(&["replay", "hnefatafl", log, "--export", "text"]);
    assert!(
        text.status.success(),
        "{}",
        String::from_utf8_lossy(&text.stderr)
    );
    let text = stdout(&text);
    assert!(
        text.starts_with("game 0\nattackers: random\ndefenders: greedy\nseed: "),
        "{text}"
    );
    assert!(text.contains("\nopening plies: 4\n"), "{text}");
    assert_eq!(text.matches("\ngame ").count() + 1, 2, "{text}");
    let otg = dir.join("games.otg");
    let written = norn(&[
        "replay",
        "hnefatafl",
        log,
        "--export",
        "opentafl",
        "--out",
        otg.to_str().unwrap(),
    ]);
    assert!(
        written.status.success(),
        "{}",
        String::from_utf8_lossy(&written.stderr)
    );
    let back = norn(&[
        "replay",
        "hnefatafl",
        otg.to_str().unwrap(),
        "--import",
        "opentafl",
    ]);
    assert!(
        back.status.success(),
        "{}",
        String::from_utf8_lossy(&back.stderr)
    );
    // The same plies, numbered from 1 in each game.
    let plies = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|line| {
                line.split_once(". ")
                    .is_some_and(|(n, _)| n.parse::<usize>().is_ok())
            })
            .map(str::to_string)
            .collect()
    };
    assert_eq!(plies(&stdout(&back)), plies(&text));
    for (args, problem) in [
        (
            vec!["replay", "hnefatafl", log, "--export", "pgn"],
            "no record format `pgn`",
        ),
        (
            vec!["replay", "thud", log, "--import", "csv"],
            "reads no records in `csv`",
        ),
        (
            vec![
                "replay",
                "hnefatafl",
                otg.to_str().unwrap(),
                "--export",
                "text",
            ],
            "give --import FORMAT",
        ),
    ] {
        let output = norn(&args);
        assert!(!output.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(problem), "{args:?}: {stderr}");
    }
}

#[test]
fn replay_imports_the_shared_csv_records() {
    let csv = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/copenhagen-games.csv"
    );
    let output = norn(&[
        "replay",
        "hnefatafl",
        csv,
        "--import",
        "csv",
        "--export",
        "opentafl",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = stdout(&output);
    assert_eq!(text.matches("[rules:dim:11").count(), 876);
}

#[test]
fn a_run_under_other_rules_replays_with_the_rules_of_its_config() {
    let dir = scratch_dir("records-run-rules");
    let out = dir.to_str().unwrap();
    let run = norn(&[
        "tournament",
        "nibelungen",
        "--rules",
        "round-limit=3",
        "--agents",
        "random",
        "smmcts:iters=20",
        "--games",
        "24",
        "--seed",
        "3",
        "--out",
        out,
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("4 of the built-in openings of nibelungen cannot be played under these rules and are left out; 96 remain"),
        "{stderr}"
    );
    // The report and the configuration keep the count.
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        report.contains("a set of 96 openings (4 of the game's built-in set left out"),
        "{report}"
    );
    let config = std::fs::read_to_string(dir.join("config.json")).unwrap();
    assert!(config.contains("\"left_out\": 4"), "{config}");
    let log = dir.join("games.jsonl");
    let replay = norn(&["replay", "nibelungen", log.to_str().unwrap()]);
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
    assert!(
        stdout(&replay).starts_with("24 games, ")
            && stdout(&replay).ends_with(", 0 games that do not replay as logged\n"),
        "{}",
        stdout(&replay)
    );
    // The log as text: the plies of simultaneous choices joined by `&`.
    let text = norn(&[
        "replay",
        "nibelungen",
        log.to_str().unwrap(),
        "--export",
        "text",
    ]);
    assert!(
        text.status.success(),
        "{}",
        String::from_utf8_lossy(&text.stderr)
    );
    assert_eq!(stdout(&text).matches("\ngame ").count() + 1, 24);
    assert!(stdout(&text).contains(" & "), "{}", stdout(&text));
    // Under the default rules, given by hand, the games that end by the
    // round limit do not replay.
    let defaults = norn(&[
        "replay",
        "nibelungen",
        log.to_str().unwrap(),
        "--rules",
        "round-limit=30",
    ]);
    assert!(!defaults.status.success());
}
