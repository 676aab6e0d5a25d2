//! Openings: sets read from text (good and bad lines), the built-in sets
//! and the procedure that makes them, colour-swapped pairs that share an
//! opening, random plies that give the same games for any thread count or
//! shard, and resumes that refuse other openings.

use norn::agents::{Agent, build_agent};
use norn::arena::{
    AgentFactory, GameLine, Opening, OpeningOrder, OpeningSet, Openings, RunOptions, Shard,
    TournamentConfig, TournamentSummary, Unwatched, check_line, merge_directories, parse_openings,
    run_tournament,
};
use norn::core::{Game, Notation, ParseError};
use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
use norn::games::nibelungen::Nibelungen;
use norn::games::stealth_chess::StealthChess;
use norn::games::tafl::{Tafl, TaflRules, VARIANTS};
use norn::games::thud::{KoomValley, Thud};
use norn::registry::Registered;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

fn hnefatafl() -> Hnefatafl {
    Hnefatafl::new(HnefataflRules::default())
}

/// How many openings each built-in set holds: enough that the pairs of a
/// default tournament (10 per pairing) and of most matches all differ.
const SET_SIZE: usize = 100;
/// Plies per built-in opening: two moves of each side.
const SET_PLIES: usize = 4;
/// The seed of the random prefixes of the built-in sets.
const SET_SEED: u64 = 2024;

/// The built-in Hnefatafl set: the first four plies of the recorded games
/// in `tests/data/copenhagen-games.csv` (records that end sooner or do not
/// replay are skipped), the most frequent first (ties in the order of
/// their first game), at most [`SET_SIZE`].
fn hnefatafl_set() -> String {
    let records = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/copenhagen-games.csv"),
    )
    .unwrap();
    let mut counts: HashMap<String, (usize, usize)> = HashMap::new();
    'records: for (number, record) in records.lines().enumerate() {
        let moves = record.split(',').next().unwrap_or("");
        let mut state = hnefatafl();
        let mut texts = Vec::new();
        for token in moves.split_whitespace().take(SET_PLIES) {
            // Records add captures as `xSQ`; the move is what comes before.
            let text = token.split('x').next().unwrap_or(token);
            let Ok(mv) = state.parse_move(text) else {
                continue 'records;
            };
            texts.push(state.move_text(mv));
            if state.try_play(mv).is_err() || state.status().is_over() {
                continue 'records;
            }
        }
        if texts.len() == SET_PLIES {
            let entry = counts.entry(texts.join(" ")).or_insert((0, number));
            entry.0 += 1;
        }
    }
    let mut prefixes: Vec<(String, (usize, usize))> = counts.into_iter().collect();
    prefixes.sort_by_key(|(_, (count, first))| (std::cmp::Reverse(*count), *first));
    let mut text = String::from(
        "# The built-in Hnefatafl openings: the first four plies of the 876 recorded\n\
         # games in tests/data/copenhagen-games.csv, the most frequent first (ties in\n\
         # the order of their first game), at most 100. Made by tests/suite/openings.rs;\n\
         # NORN_WRITE_OPENINGS=1 cargo test --release --test suite openings writes it again.\n",
    );
    for (prefix, (count, _)) in prefixes.into_iter().take(SET_SIZE) {
        text.push_str(&format!("# played in {count} games\n{prefix}\n"));
    }
    text
}

/// A built-in set of balanced random prefixes: four uniformly random plies
/// from the start, drawn as `--random-plies 4` draws pair `k`'s opening
/// from seed [`SET_SEED`], kept when the game's own evaluation of the
/// result differs from that of the start by at most 2% of the payoff range
/// (no side has gained material) and the prefix is new, until
/// [`SET_SIZE`] are kept.
fn balanced_set<G: Registered>(title: &str) -> String {
    balanced_set_from(&G::new(G::Rules::default()), title)
}

/// [`balanced_set`] from the start of `start`'s rules.
fn balanced_set_from<G: Registered>(start: &G, title: &str) -> String {
    let start = start.clone();
    let (low, high) = start.payoff_range();
    let tolerance = 0.02 * (high - low);
    let mut kept: Vec<Opening> = Vec::new();
    for k in 0..100_000 {
        if kept.len() == SET_SIZE {
            break;
        }
        let opening = Openings::RandomPlies(SET_PLIES)
            .opening(&start, SET_SEED, k)
            .unwrap()
            .unwrap();
        let state = opening.apply(&start).unwrap();
        let shift = (state.evaluate(0) - start.evaluate(0)).abs();
        if shift <= tolerance && !kept.contains(&opening) {
            kept.push(opening);
        }
    }
    assert_eq!(kept.len(), SET_SIZE, "too few balanced openings of {title}");
    let mut text = format!(
        "# The built-in {title} openings: four uniformly random plies from the start, as\n\
         # --random-plies 4 draws them from seed {SET_SEED} for pairs 0, 1, 2, ..., kept when\n\
         # the game's evaluation differs from the start's by at most 2% of the payoff\n\
         # range and the prefix is new, until 100 are kept. Made by tests/suite/openings.rs;\n\
         # NORN_WRITE_OPENINGS=1 cargo test --release --test suite openings writes it again.\n"
    );
    for opening in kept {
        text.push_str(&opening.line());
        text.push('\n');
    }
    text
}

#[test]
fn the_built_in_sets_are_made_by_their_documented_procedure() {
    let sets = [
        ("hnefatafl", hnefatafl_set(), Hnefatafl::default_openings()),
        (
            "thud",
            balanced_set::<Thud>("Thud"),
            Thud::default_openings(),
        ),
        (
            "koom-valley",
            balanced_set::<KoomValley>("Koom Valley Thud"),
            KoomValley::default_openings(),
        ),
        (
            "nibelungen",
            balanced_set::<Nibelungen>("Nibelungen"),
            Nibelungen::default_openings(),
        ),
        (
            "stealth-chess",
            balanced_set::<StealthChess>("Stealth Chess"),
            StealthChess::default_openings(),
        ),
    ];
    let mut sets = Vec::from(sets);
    // The tafl family keeps one set per variant, named after it.
    for variant in VARIANTS {
        let rules = TaflRules::variant(variant.name).unwrap();
        sets.push((
            variant.name,
            balanced_set_from(&Tafl::new(rules), variant.name),
            Tafl::openings_for(&rules),
        ));
    }
    for (name, made, built_in) in sets {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("openings/{name}.txt"));
        if std::env::var_os("NORN_WRITE_OPENINGS").is_some() {
            std::fs::write(&path, &made).unwrap();
        } else {
            assert_eq!(
                built_in,
                Some(made.as_str()),
                "{} is not what its procedure makes",
                path.display()
            );
        }
    }
}

/// Every built-in set reads under its game's rules, holds no opening twice
/// and is large enough for the default tournament's ten pairs per pairing.
#[test]
fn the_built_in_sets_read_and_hold_distinct_openings() {
    fn check<G: Registered>() {
        let start = G::new(G::Rules::default());
        let set = parse_openings(G::default_openings().unwrap(), &start).unwrap();
        let distinct: std::collections::HashSet<&Opening> = set.iter().collect();
        assert_eq!(distinct.len(), set.len(), "{}", G::NAME);
        assert!(set.len() >= 10, "{}: {} openings", G::NAME, set.len());
    }
    check::<Hnefatafl>();
    check::<Thud>();
    check::<KoomValley>();
    check::<Nibelungen>();
    for variant in VARIANTS {
        let rules = TaflRules::variant(variant.name).unwrap();
        let start = Tafl::new(rules);
        let set = parse_openings(Tafl::openings_for(&rules).unwrap(), &start).unwrap();
        let distinct: std::collections::HashSet<&Opening> = set.iter().collect();
        assert_eq!(distinct.len(), set.len(), "{}", variant.name);
        assert!(set.len() >= 10, "{}: {} openings", variant.name, set.len());
    }
}

#[test]
fn opening_files_read_positions_and_plies_and_skip_comments() {
    let start = hnefatafl();
    let mut later = start.clone();
    later.try_play(later.parse_move("h1-h3").unwrap()).unwrap();
    let position = later.position_text();
    let text = format!("# a comment\n\n  h1-h3 f8-i8  \n{position}\n");
    let openings = parse_openings(&text, &start).unwrap();
    assert_eq!(
        openings,
        vec![
            Opening::Moves(vec![
                norn::core::PlyText::Move("h1-h3".into()),
                norn::core::PlyText::Move("f8-i8".into()),
            ]),
            Opening::Position(position),
        ]
    );
    assert_eq!(openings[0].line(), "h1-h3 f8-i8");
    let after = openings[0].apply(&start).unwrap();
    assert_eq!(after.ply(), 2);

    // Nibelungen's first ply is a joint choice, written with `&`.
    let nibelungen = Nibelungen::new(Default::default());
    let set = parse_openings(Nibelungen::default_openings().unwrap(), &nibelungen).unwrap();
    let joint = set.iter().find(|opening| opening.line().contains('&'));
    assert!(joint.is_some(), "no joint ply in {set:?}");
}

#[test]
fn bad_opening_lines_are_refused_by_number_with_the_reason() {
    let start = hnefatafl();
    let error = |text: &str| parse_openings(text, &start).unwrap_err();
    let bad_move = error("h1-h3\n# fine so far\nh1-h3 f8-i8 zz9\n");
    assert!(
        bad_move.starts_with("line 3: ") && bad_move.contains("ply 3"),
        "{bad_move}"
    );
    let illegal = error("h1-h3 h1-h2\n");
    assert!(
        illegal.contains("line 1") && illegal.contains("ply 2"),
        "{illegal}"
    );
    let no_king = error("/11/11/11/11/11/11/11/11/11/11/11/ defenders\n");
    assert!(no_king.contains("neither a position"), "{no_king}");
    assert!(error("\n# only comments\n").contains("no openings"));
    let long = vec!["d1-d3 d3-d1"; 101].join(" ");
    let too_long = error(&long);
    assert!(too_long.contains("more than the 200"), "{too_long}");
    // Text that is not an opening at all never panics.
    for junk in ["\u{0}", "&&&", "a&b c", "-", "/////////////", "h3-h1"] {
        assert!(parse_openings(junk, &start).is_err(), "{junk:?}");
    }
}

#[test]
fn random_plies_are_checked_and_repeatable() {
    let start = hnefatafl();
    assert!(Openings::RandomPlies(0).validate(&start).is_err());
    assert!(Openings::RandomPlies(100_000_000).validate(&start).is_err());
    let plies = Openings::RandomPlies(6);
    plies.validate(&start).unwrap();
    let first = plies.opening(&start, 5, 3).unwrap().unwrap();
    assert_eq!(plies.opening(&start, 5, 3).unwrap().unwrap(), first);
    assert_ne!(plies.opening(&start, 5, 4).unwrap().unwrap(), first);
    assert_eq!(first.apply(&start).unwrap().ply(), 6);
}

#[test]
fn a_random_order_is_a_shuffle_fixed_by_the_seed() {
    let start = hnefatafl();
    let set = parse_openings(Hnefatafl::default_openings().unwrap(), &start).unwrap();
    let lines: Vec<String> = set.iter().map(Opening::line).collect();
    let sequential = OpeningSet::new(set.clone(), OpeningOrder::Sequential, 1);
    assert_eq!(sequential.lines(), lines.as_slice());
    let shuffled = OpeningSet::new(set.clone(), OpeningOrder::Random, 1);
    assert_ne!(shuffled.lines(), lines.as_slice());
    assert_eq!(shuffled, OpeningSet::new(set, OpeningOrder::Random, 1));
    let mut sorted = shuffled.lines().to_vec();
    let mut original = lines;
    sorted.sort();
    original.sort();
    assert_eq!(sorted, original);
}

fn make_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<Hnefatafl>>, ParseError> {
    build_agent(spec, seed)
}

fn config(openings: Openings) -> TournamentConfig {
    TournamentConfig {
        game: "hnefatafl".into(),
        rules: String::new(),
        agents: vec!["alphabeta:depth=1".into(), "greedy".into(), "random".into()],
        games_per_pair: 6,
        seed: 9,
        max_plies: Some(60),
        anchor: None,
        gauntlet: false,
        time_control: None,
        adjudication: None,
        openings,
    }
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn run(
    config: &TournamentConfig,
    threads: usize,
    shard: Shard,
    out: Option<PathBuf>,
) -> Result<Vec<GameLine>, String> {
    run_game(config, &hnefatafl(), &make_agent, threads, shard, out)
}

/// Runs the tournament `config` of any game.
fn run_game<G: Notation>(
    config: &TournamentConfig,
    start: &G,
    make_agent: &AgentFactory<'_, G>,
    threads: usize,
    shard: Shard,
    out: Option<PathBuf>,
) -> Result<Vec<GameLine>, String> {
    let stop = AtomicBool::new(false);
    let options = RunOptions {
        record_search: false,
        threads,
        shard,
        out_dir: out,
        stop: &stop,
        progress: &Unwatched,
        repair: false,
        force_resume: false,
        max_forfeits: norn::arena::DEFAULT_MAX_FORFEITS,
    };
    run_tournament(config, start, make_agent, &options)
        .map(|result| result.games)
        .map_err(|error| error.to_string())
}

fn logged_games(dir: &Path) -> Vec<GameLine> {
    std::fs::read_to_string(dir.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[test]
fn colour_swapped_pairs_share_their_opening_in_the_log() {
    let start = hnefatafl();
    let set = parse_openings(Hnefatafl::default_openings().unwrap(), &start).unwrap();
    let config = config(Openings::Set(OpeningSet::new(
        set.clone(),
        OpeningOrder::Sequential,
        9,
    )));
    let dir = scratch_dir("openings-pairs");
    run(&config, 2, Shard::ALL, Some(dir.clone())).unwrap();
    let mut games = logged_games(&dir);
    games.sort_by_key(|game| game.index);
    assert_eq!(games.len(), config.total_games());
    for pair in games.chunks(2) {
        assert_eq!(pair[0].opening, pair[1].opening);
        assert_eq!(pair[0].seats, [pair[1].seats[1], pair[1].seats[0]]);
        // Pair j of each pairing plays opening j of the set.
        let round = (pair[0].index % config.games_per_pair) / 2;
        assert_eq!(pair[0].opening.as_ref(), Some(&set[round]));
    }
    for game in &games {
        check_line(&config, &start, game).unwrap();
    }
    // Between the deterministic agents, every game is its own.
    let summary = TournamentSummary::compute(&config, &games, false);
    let deterministic = &summary.pairings[0];
    assert_eq!(deterministic.agents, ["alphabeta:depth=1", "greedy"]);
    assert_eq!(deterministic.distinct_games, deterministic.games);

    // A logged game with another opening is refused.
    let mut forged = games[0].clone();
    forged.opening = Some(set[5].clone());
    let refused = check_line(&config, &start, &forged).unwrap_err();
    assert!(refused.contains("opening"), "{refused}");
}

#[test]
fn random_plies_give_the_same_games_for_any_thread_count_or_shard() {
    let config = config(Openings::RandomPlies(3));
    let one = run(&config, 1, Shard::ALL, None).unwrap();
    let two = run(&config, 2, Shard::ALL, None).unwrap();
    assert_eq!(one, two);
    assert!(one.iter().all(|game| game.opening.is_some()));

    let dirs: Vec<PathBuf> = (0..2)
        .map(|index| {
            let dir = scratch_dir(&format!("openings-shard-{index}"));
            run(&config, 1, Shard { index, count: 2 }, Some(dir.clone())).unwrap();
            dir
        })
        .collect();
    let merged = merge_directories(&dirs, false).unwrap();
    assert_eq!(merged.games, one);
}

#[test]
fn a_resume_with_other_openings_is_refused() {
    let dir = scratch_dir("openings-resume");
    let first = config(Openings::RandomPlies(2));
    run(&first, 2, Shard::ALL, Some(dir.clone())).unwrap();
    for other in [
        Openings::RandomPlies(3),
        Openings::Start,
        Openings::Position(hnefatafl().position_text()),
    ] {
        let refused = run(&config(other), 2, Shard::ALL, Some(dir.clone())).unwrap_err();
        assert!(refused.contains("different openings"), "{refused}");
    }
    // A run from the game's start (as older builds played) says how to resume it.
    let start_dir = scratch_dir("openings-resume-start");
    run(
        &config(Openings::Start),
        2,
        Shard::ALL,
        Some(start_dir.clone()),
    )
    .unwrap();
    let refused = run(&first, 2, Shard::ALL, Some(start_dir)).unwrap_err();
    assert!(refused.contains("--no-openings resumes it"), "{refused}");
    // The same openings resume and play nothing again.
    assert_eq!(
        run(&first, 2, Shard::ALL, Some(dir.clone())).unwrap(),
        logged_games(&dir)
            .into_iter()
            .fold(Vec::new(), |mut all, game| {
                all.push(game);
                all.sort_by_key(|game| game.index);
                all
            })
    );
}

/// Nibelungen's openings begin with a joint ply: games from them are
/// played, logged and checked like any other.
#[test]
fn games_of_simultaneous_choices_start_from_their_openings() {
    let start = Nibelungen::new(Default::default());
    let set = parse_openings(Nibelungen::default_openings().unwrap(), &start).unwrap();
    let config = TournamentConfig {
        game: "nibelungen".into(),
        agents: vec!["random-a".into(), "random-b".into()],
        openings: Openings::Set(OpeningSet::new(set, OpeningOrder::Random, 3)),
        ..config(Openings::Start)
    };
    let make_agent = |_: &str, seed: u64| -> Result<Box<dyn Agent<Nibelungen>>, ParseError> {
        Ok(Box::new(norn::agents::RandomAgent::new(seed)))
    };
    let games = run_game(&config, &start, &make_agent, 2, Shard::ALL, None).unwrap();
    assert_eq!(games.len(), 6);
    for pair in games.chunks(2) {
        assert_eq!(pair[0].opening, pair[1].opening);
    }
    for game in &games {
        check_line(&config, &start, game).unwrap();
    }
}

/// A run keeps its opening set once, beside its configuration:
/// `config.json` holds the set's order, size and SHA-256 digest (that of
/// `openings.txt`, which holds the lines in play order), and a merge of
/// shards keeps the file too. A configuration written before the digest,
/// with every opening inline, still resumes.
#[test]
fn a_run_keeps_its_opening_set_once_by_digest() {
    let start = hnefatafl();
    let set = OpeningSet::read(
        Hnefatafl::default_openings().unwrap(),
        &start,
        OpeningOrder::Random,
        9,
    )
    .unwrap();
    // SHA-256 of "abc\n", as `sha256sum` gives it.
    let one = OpeningSet::new(
        vec![Opening::Position("abc".into())],
        OpeningOrder::Sequential,
        0,
    );
    assert_eq!(
        one.sha256(),
        "edeaaff3f1774ad2888673770c6d64097e391bc362d7d6fb34982ddf0efd18cb"
    );
    let config = config(Openings::Set(set.clone()));
    let dirs: Vec<PathBuf> = (0..2)
        .map(|index| {
            let dir = scratch_dir(&format!("openings-digest-{index}"));
            run(&config, 1, Shard { index, count: 2 }, Some(dir.clone())).unwrap();
            dir
        })
        .collect();
    let stored: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dirs[0].join("config.json")).unwrap())
            .unwrap();
    assert_eq!(
        stored["openings"]["set"],
        serde_json::json!({"order": "random", "count": 100, "sha256": set.sha256()})
    );
    let file = std::fs::read_to_string(dirs[0].join(norn::arena::OPENINGS_FILE)).unwrap();
    assert_eq!(file.lines().collect::<Vec<_>>(), set.lines());
    let mut loaded =
        serde_json::from_value::<OpeningSet>(stored["openings"]["set"].clone()).unwrap();
    assert!(!loaded.is_loaded());
    loaded.load(&file).unwrap();
    assert_eq!(loaded.lines(), set.lines());
    assert!(loaded.load(&file.replacen('\n', "\n\n", 1)).is_err());

    let merged = merge_directories(&dirs, false).unwrap();
    let Openings::Set(merged_set) = &merged.config.openings else {
        panic!("the merged run has no opening set");
    };
    assert_eq!(merged_set.lines(), set.lines());

    // The form of older builds: the openings inline in the configuration.
    let mut legacy = stored.clone();
    legacy["openings"]["set"] = serde_json::json!({
        "order": "random",
        "openings": set
            .lines()
            .iter()
            .map(|line| Opening::parse(line, &start).unwrap())
            .collect::<Vec<_>>(),
    });
    std::fs::write(dirs[0].join("config.json"), legacy.to_string()).unwrap();
    std::fs::remove_file(dirs[0].join(norn::arena::OPENINGS_FILE)).unwrap();
    let mut resumed = run(
        &config,
        1,
        Shard { index: 0, count: 2 },
        Some(dirs[0].clone()),
    )
    .unwrap();
    let mut logged = logged_games(&dirs[0]);
    resumed.sort_by_key(|game| game.index);
    logged.sort_by_key(|game| game.index);
    assert_eq!(resumed, logged);
}

/// The same small Hnefatafl tournament of deterministic agents, left at the
/// default openings, run by the library into `<name>-library` and by
/// `norn tournament` without opening flags into `<name>-cli`.
fn library_and_command_line_runs(name: &str) -> (norn::arena::RunResult, PathBuf, PathBuf) {
    let (library_dir, cli_dir) = (
        scratch_dir(&format!("{name}-library")),
        scratch_dir(&format!("{name}-cli")),
    );
    let config = TournamentConfig {
        agents: vec!["alphabeta:depth=1".into(), "greedy".into()],
        games_per_pair: 8,
        max_plies: Some(24),
        ..config(Openings::default())
    };
    let stop = AtomicBool::new(false);
    let options = RunOptions {
        record_search: false,
        threads: 2,
        shard: Shard::ALL,
        out_dir: Some(library_dir.clone()),
        stop: &stop,
        progress: &Unwatched,
        repair: false,
        force_resume: false,
        max_forfeits: norn::arena::DEFAULT_MAX_FORFEITS,
    };
    let result = run_tournament(
        &config,
        &hnefatafl(),
        &norn::registry::build_agent::<Hnefatafl>,
        &options,
    )
    .unwrap();
    let cli_path = cli_dir.to_str().unwrap();
    let output = crate::common::cli::norn(&[
        "tournament",
        "hnefatafl",
        "--agents",
        "alphabeta:depth=1",
        "greedy",
        "--games",
        "8",
        "--max-plies",
        "24",
        "--seed",
        "9",
        "--threads",
        "2",
        // Like the library run: search records hold times, which differ
        // from run to run.
        "--record-search",
        "off",
        "--out",
        cli_path,
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (result, library_dir, cli_dir)
}

/// A JSON file of a run without its `build` field, which names the
/// executable that played (the test's, or norn's).
fn without_build(path: &Path) -> serde_json::Value {
    let mut value = crate::common::cli::read_json(path);
    value.as_object_mut().unwrap().remove("build");
    value
}

#[test]
fn a_library_tournament_starts_where_the_command_line_does() {
    let (result, library_dir, cli_dir) = library_and_command_line_runs("default-openings");
    let read = |dir: &Path, file: &str| std::fs::read_to_string(dir.join(file)).unwrap();
    // The game's built-in set, in its order, as config.json records it.
    assert!(matches!(
        Openings::default().resolve(&hnefatafl()),
        Ok(Openings::Set(_))
    ));
    assert_eq!(
        without_build(&library_dir.join("config.json")),
        without_build(&cli_dir.join("config.json"))
    );
    assert_eq!(
        read(&library_dir, "openings.txt"),
        read(&cli_dir, "openings.txt")
    );
    // Lines are written as games end, in any order.
    let games = |dir: &Path| {
        let mut lines: Vec<String> = read(dir, "games.jsonl")
            .lines()
            .map(str::to_string)
            .collect();
        lines.sort();
        lines
    };
    assert_eq!(games(&library_dir), games(&cli_dir));
    // From the game's start these two agents would play one game per seat.
    assert_eq!(result.summary.overall.distinct_games, 8);
}

#[test]
fn a_library_run_with_an_out_dir_writes_the_reports_of_the_command_line() {
    let (result, library_dir, cli_dir) = library_and_command_line_runs("reports");
    let files = |dir: &Path| {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    assert_eq!(files(&library_dir), files(&cli_dir));
    for report in ["summary.json", "report.md", "ratings.svg"] {
        assert!(library_dir.join(report).exists(), "{report}");
    }
    assert_eq!(
        without_build(&library_dir.join("summary.json")),
        without_build(&cli_dir.join("summary.json"))
    );
    let report = |dir: &Path| -> Vec<String> {
        std::fs::read_to_string(dir.join("report.md"))
            .unwrap()
            .lines()
            .filter(|line| !line.starts_with("- played by "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(report(&library_dir), report(&cli_dir));
    assert_eq!(
        std::fs::read_to_string(library_dir.join("ratings.svg")).unwrap(),
        std::fs::read_to_string(cli_dir.join("ratings.svg")).unwrap()
    );
    // The summary the run returns is the one it wrote.
    assert_eq!(
        serde_json::to_string_pretty(&result.summary).unwrap() + "\n",
        std::fs::read_to_string(library_dir.join("summary.json")).unwrap()
    );
}
