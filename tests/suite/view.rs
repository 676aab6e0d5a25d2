//! `norn view`: the page of a run holds every game, and its stored changes
//! rebuild exactly the pictures the game draws, ply by ply.

use crate::common::cli::norn;
use norn::arena::{RecordedGame, recorded_games, replay_plies};
use norn::core::{Content, Picture, PlyText, Status};
use norn::registry::{self, GameVisitor, Registered};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("view")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.parent().unwrap()).unwrap();
    dir
}

fn succeeds(args: &[&str]) -> String {
    let output = norn(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The error a failing `norn` run printed.
fn fails(args: &[&str]) -> String {
    let output = norn(args);
    assert!(!output.status.success(), "{args:?} should fail");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A small tournament of random agents of `game` in `dir`.
fn tournament(game: &str, dir: &Path) {
    succeeds(&[
        "tournament",
        game,
        "--agents",
        "random",
        "random",
        "--games",
        "4",
        "--max-plies",
        "16",
        "--threads",
        "1",
        "--out",
        dir.to_str().unwrap(),
    ]);
}

/// The text of the `<script>` element with id `id` in `page`.
fn script<'a>(page: &'a str, id: &str) -> &'a str {
    let open = page
        .find(&format!("id=\"{id}\">"))
        .unwrap_or_else(|| panic!("no #{id}"));
    let text = &page[open..];
    let text = &text[text.find('>').unwrap() + 1..];
    &text[..text.find("</script>").unwrap()]
}

/// Standard base64, decoded here rather than by the library.
fn base64_bytes(text: &str) -> Vec<u8> {
    let value = |byte: u8| match byte {
        b'A'..=b'Z' => byte - b'A',
        b'a'..=b'z' => byte - b'a' + 26,
        b'0'..=b'9' => byte - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("{byte} is not base64"),
    };
    let digits: Vec<u8> = text.trim_end_matches('=').bytes().map(value).collect();
    let mut bits = 0u32;
    let mut count = 0;
    let mut bytes = Vec::new();
    for digit in digits {
        bits = bits << 6 | u32::from(digit);
        count += 6;
        if count >= 8 {
            count -= 8;
            bytes.push((bits >> count) as u8);
        }
    }
    bytes
}

/// A stored game inflated with flate2 and read as JSON.
fn inflate(packed: &str) -> Value {
    let mut text = String::new();
    flate2::read::ZlibDecoder::new(base64_bytes(packed).as_slice())
        .read_to_string(&mut text)
        .unwrap();
    serde_json::from_str(&text).unwrap()
}

/// A stored slot content: `""` empty, `#symbol`, `=text`.
fn content(code: &Value) -> Content {
    let code = code.as_str().unwrap();
    match code.chars().next() {
        None => Content::Empty,
        Some('#') => Content::Piece(code[1..].to_string()),
        Some('=') => Content::Text(code[1..].to_string()),
        _ => panic!("{code:?}"),
    }
}

/// Checks a page's games against the log `log_text`, replayed here: every
/// ply's picture rebuilt from the stored keyframes and changes is the
/// state's `picture()`, and the stored position texts are the states'.
struct CheckPage<'a> {
    page: &'a str,
    log_text: &'a str,
    rules: &'a str,
}

impl GameVisitor for CheckPage<'_> {
    type Output = usize;

    fn visit<G: Registered>(&mut self) -> usize {
        let rules: G::Rules = self.rules.parse().unwrap();
        let start = G::new(rules);
        let mut records: Vec<RecordedGame<G>> = recorded_games(&start, self.log_text).unwrap();
        records.sort_by_key(|record| record.number);
        let data: Value = serde_json::from_str(script(self.page, "view-data")).unwrap();
        let layouts: Value = serde_json::from_str(script(self.page, "layouts")).unwrap();
        let packed: Vec<&str> = script(self.page, "game-data").split_whitespace().collect();
        let rows = data["games"].as_array().unwrap();
        assert_eq!(rows.len(), records.len());
        assert_eq!(packed.len(), records.len());
        let mut plies = 0;
        for ((row, stored), record) in rows.iter().zip(&packed).zip(&records) {
            assert_eq!(row[0].as_u64().unwrap() as usize, record.number);
            let stored = inflate(stored);
            let mut expected: Vec<(Picture, String)> = Vec::new();
            let last = replay_plies(
                &record.start,
                &record.plies,
                record.chance_seed,
                |state, _| {
                    expected.push((state.picture(), state.position_text()));
                },
            )
            .unwrap();
            expected.push((last.picture(), last.position_text()));
            let expected = &expected[record.opening_plies..];
            let frames = stored["p"].as_array().unwrap();
            let texts = stored["t"].as_array().unwrap();
            assert_eq!(frames.len(), expected.len(), "game {}", record.number);
            assert_eq!(texts.last().unwrap(), &last.position_text());
            let mut layout = usize::MAX;
            let mut contents: Vec<Content> = Vec::new();
            for ((frame, text), (picture, position)) in frames.iter().zip(texts).zip(expected) {
                if let Some(number) = frame.get("l") {
                    layout = number.as_u64().unwrap() as usize;
                    contents = frame["s"].as_array().unwrap().iter().map(content).collect();
                } else {
                    let changes = frame["c"].as_array().unwrap();
                    for change in changes.chunks(2) {
                        contents[change[0].as_u64().unwrap() as usize] = content(&change[1]);
                    }
                }
                let drawn = &layouts[layout];
                assert_eq!(drawn["w"], picture.width);
                assert_eq!(drawn["h"], picture.height);
                assert_eq!(drawn["f"], picture.frame.as_str());
                let slots = drawn["s"].as_array().unwrap();
                assert_eq!(slots.len(), picture.slots.len());
                for ((slot, held), wanted) in slots.iter().zip(&contents).zip(&picture.slots) {
                    assert_eq!(slot[0], wanted.name.as_str());
                    assert_eq!(slot[1].as_f64().unwrap() as f32, wanted.x);
                    assert_eq!(slot[4].as_f64().unwrap() as f32, wanted.height);
                    assert_eq!(slot[5].as_u64().map(|p| p as usize), wanted.seen_by);
                    assert_eq!(held, &wanted.content, "game {}", record.number);
                }
                assert_eq!(text, position.as_str());
                plies += 1;
            }
        }
        plies
    }
}

/// The references of `page` to anything on a network.
fn network_references(page: &str) -> Vec<&str> {
    ["http://", "https://"]
        .iter()
        .flat_map(|scheme| page.match_indices(scheme))
        .map(|(at, _)| &page[at..(at + 40).min(page.len())])
        .filter(|reference| !reference.starts_with("http://www.w3.org/2000/svg\""))
        .collect()
}

#[test]
fn the_page_of_every_games_tournament_rebuilds_every_picture() {
    let mut checked = 0;
    for game in registry::games() {
        if !game.capabilities.competitive() {
            continue;
        }
        let dir = scratch(game.name);
        tournament(game.name, &dir);
        let page_path = dir.join("page.html");
        succeeds(&[
            "view",
            dir.to_str().unwrap(),
            "--out",
            page_path.to_str().unwrap(),
        ]);
        let page = std::fs::read_to_string(&page_path).unwrap();
        assert_eq!(
            network_references(&page),
            Vec::<&str>::new(),
            "{}",
            game.name
        );
        let log_text = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
        let config: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("config.json")).unwrap())
                .unwrap();
        let plies = registry::visit(
            game.name,
            &mut CheckPage {
                page: &page,
                log_text: &log_text,
                rules: config["rules"].as_str().unwrap(),
            },
        )
        .unwrap();
        assert!(plies > 4, "{}: {plies} plies", game.name);
        checked += 1;
    }
    assert!(checked >= 4, "{checked} games");
}

#[test]
fn forged_cut_and_foreign_logs_are_refused_with_their_line() {
    let dir = scratch("forged");
    tournament("thud", &dir);
    let log = dir.join("games.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let out = dir.join("page.html");
    let view = [
        "view",
        dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    succeeds(&view);

    // An illegal move in the second game.
    let mut game: Value = serde_json::from_str(lines[1]).unwrap();
    game["moves"][0] = Value::String("a1-a2".into());
    let mut forged = lines.clone();
    let forged_line = game.to_string();
    forged[1] = &forged_line;
    std::fs::write(&log, forged.join("\n") + "\n").unwrap();
    let error = fails(&view);
    assert!(error.contains("line 2"), "{error}");

    // A line that is not a game.
    let mut broken = lines.clone();
    broken[2] = "{\"index\": 2, \"seats\"";
    std::fs::write(&log, broken.join("\n") + "\n").unwrap();
    let error = fails(&view);
    assert!(error.contains("line 3"), "{error}");

    // A last line cut short.
    let cut = format!("{}\n{}", lines[..3].join("\n"), &lines[3][..20]);
    std::fs::write(&log, cut).unwrap();
    let error = fails(&view);
    assert!(error.contains("line 4 is cut short"), "{error}");

    // The log alone, read as another game's.
    std::fs::write(&log, &text).unwrap();
    let alone = scratch("alone");
    std::fs::create_dir_all(&alone).unwrap();
    let alone_log = alone.join("games.jsonl");
    std::fs::write(&alone_log, &text).unwrap();
    let error = fails(&["view", alone_log.to_str().unwrap(), "--game", "hnefatafl"]);
    assert!(error.contains("line 1"), "{error}");
    // Read as its own game, it is a page; thud and Koom Valley have the
    // same sides, so the game must be named.
    let error = fails(&["view", alone_log.to_str().unwrap()]);
    assert!(error.contains("give --game"), "{error}");
    succeeds(&["view", alone_log.to_str().unwrap(), "--game", "thud"]);
    let page = std::fs::read_to_string(alone.join("games.html")).unwrap();
    let data: Value = serde_json::from_str(script(&page, "view-data")).unwrap();
    assert_eq!(data["games"].as_array().unwrap().len(), lines.len());

    let error = fails(&["view", dir.join("absent").to_str().unwrap()]);
    assert!(error.contains("cannot read"), "{error}");
}

#[test]
fn a_log_alone_is_read_for_its_game_from_its_first_line_only() {
    // The game of a log without its run is found from the first game; a
    // byte that is not text further on is then named with its line by the
    // page's own reading, rather than failing the whole file at once.
    let dir = scratch("first-line");
    tournament("stealth-chess", &dir);
    let log = dir.join("games.jsonl");
    let mut bytes = std::fs::read(&log).unwrap();
    let lines: Vec<usize> = bytes
        .iter()
        .enumerate()
        .filter(|(_, byte)| **byte == b'\n')
        .map(|(at, _)| at)
        .collect();
    bytes[lines[1] + 2] = 0xff;
    let alone = scratch("first-line-alone");
    std::fs::create_dir_all(&alone).unwrap();
    let alone_log = alone.join("games.jsonl");
    std::fs::write(&alone_log, &bytes).unwrap();
    let error = fails(&["view", alone_log.to_str().unwrap()]);
    assert!(
        error.contains("line 3") && error.contains("UTF-8"),
        "{error}"
    );
}

#[test]
fn a_matchs_page_reads_its_test_again() {
    let dir = scratch("match");
    succeeds(&[
        "match",
        "thud",
        "greedy",
        "random",
        "--sprt",
        "0,200",
        "--max-games",
        "12",
        "--max-plies",
        "12",
        "--threads",
        "1",
        "--out",
        dir.to_str().unwrap(),
    ]);
    succeeds(&["view", dir.to_str().unwrap()]);
    let page = std::fs::read_to_string(dir.join("view.html")).unwrap();
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    // The test's lines, as the match wrote them, recomputed from the log.
    let llr_line = report
        .lines()
        .find(|line| line.starts_with("- LLR "))
        .unwrap();
    assert!(page.contains(&llr_line[2..]), "{llr_line}");
    assert!(page.contains("Log-likelihood ratio"));
}

#[test]
fn the_watched_page_is_served_on_loopback() {
    let dir = scratch("watch");
    tournament("thud", &dir);
    let error = fails(&[
        "view",
        dir.to_str().unwrap(),
        "--watch",
        "--bind",
        "0.0.0.0",
    ]);
    assert!(error.contains("not a loopback address"), "{error}");
    let mut server = std::process::Command::new(env!("CARGO_BIN_EXE_norn"))
        .args(["view", dir.to_str().unwrap(), "--watch", "--port", "0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let address = first
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("{first}"))
        .to_string();
    assert!(address.starts_with("127.0.0.1:"), "{address}");
    let get = |path: &str| {
        let mut stream = std::net::TcpStream::connect(&address).unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: {address}\r\n\r\n").unwrap();
        let mut reply = String::new();
        stream.read_to_string(&mut reply).unwrap();
        reply
    };
    let page = get("/");
    let version = get("/version");
    let missing = get("/elsewhere");
    server.kill().unwrap();
    server.wait().unwrap();
    assert!(page.starts_with("HTTP/1.1 200 OK\r\n"), "{}", &page[..80]);
    assert!(page.contains("<title>thud tournament</title>"));
    assert!(page.contains("id=\"game-data\""));
    assert!(version.ends_with("\r\n\r\n1"), "{version}");
    assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");
}

/// A win-rate run of `random` and `policy` on 12 deals of Fenrir's Path,
/// and a sweep of them over `sweep`, in directories named with `suffix`.
fn win_rate_run_and_sweep(suffix: &str, policy: &str, sweep: &str) -> (PathBuf, PathBuf) {
    let run = scratch(&format!("win-rate{suffix}"));
    let swept = scratch(&format!("sweep{suffix}"));
    let common = [
        "--policy",
        "random",
        policy,
        "--deals",
        "12",
        "--threads",
        "1",
    ];
    let mut args = vec!["winrate", "fenrir-path", "--out", run.to_str().unwrap()];
    args.extend(common);
    succeeds(&args);
    let mut args = vec!["winrate", "fenrir-path", "--out", swept.to_str().unwrap()];
    args.extend(common);
    args.extend(["--sweep", sweep]);
    succeeds(&args);
    (run, swept)
}

#[test]
fn a_win_rate_run_and_a_sweep_have_pages_of_their_rates() {
    let (run, sweep) = win_rate_run_and_sweep("", "mcts:iters=100", "spacing=2..4");
    for (dir, chart) in [
        (&run, "Win rate per policy"),
        (&sweep, "Win rate against spacing"),
    ] {
        succeeds(&["view", dir.to_str().unwrap(), "--deals", "5"]);
        let page = std::fs::read_to_string(dir.join("view.html")).unwrap();
        assert!(page.contains(chart), "{dir:?}");
        assert!(page.contains("mcts:iters=100"), "{dir:?}");
        assert_eq!(network_references(&page), Vec::<&str>::new());
    }
    let sweep_page = std::fs::read_to_string(sweep.join("view.html")).unwrap();
    assert!(!sweep_page.contains("id=\"game-list\""));
    let page = std::fs::read_to_string(run.join("view.html")).unwrap();
    let deals = std::fs::read_to_string(run.join("deals.csv")).unwrap();
    let games = registry::visit(
        "fenrir-path",
        &mut CheckDeals {
            page: &page,
            deals: &deals,
        },
    )
    .unwrap();
    assert_eq!(games, 10);
}

/// Checks the games of a win-rate run's page against the run's deals.csv:
/// each starts at the deal of its number, its moves play legally from there
/// (read and played here), and its last position is the end of the game,
/// with the result the run recorded.
struct CheckDeals<'a> {
    page: &'a str,
    deals: &'a str,
}

impl GameVisitor for CheckDeals<'_> {
    type Output = usize;

    fn visit<G: Registered>(&mut self) -> usize {
        let mut lines = self.deals.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').skip(2).collect();
        // A deal's text holds commas; its results are the last fields.
        let rows: Vec<(usize, String, Vec<bool>)> = lines
            .map(|line| {
                let (index, rest) = line.split_once(',').unwrap();
                let (deal, results) = rest.rsplit_once('"').unwrap();
                let won = results.split(',').skip(1).map(|flag| flag == "1").collect();
                (index.parse().unwrap(), deal[1..].to_string(), won)
            })
            .collect();
        let data: Value = serde_json::from_str(script(self.page, "view-data")).unwrap();
        let packed: Vec<&str> = script(self.page, "game-data").split_whitespace().collect();
        let agents = data["agents"].as_array().unwrap();
        let rows_shown = data["games"].as_array().unwrap();
        assert_eq!(data["results"], serde_json::json!(["won", "lost"]));
        let mut won_somewhere = false;
        for (row, stored) in rows_shown.iter().zip(&packed) {
            let policy = agents[row[1].as_u64().unwrap() as usize].as_str().unwrap();
            let deal = row[6].as_u64().unwrap() as usize;
            let (_, dealt, won) = &rows[deal];
            let won = won[header.iter().position(|name| *name == policy).unwrap()];
            assert_eq!(
                row[3].as_u64().unwrap(),
                u64::from(!won),
                "deal {deal} of {policy}"
            );
            won_somewhere |= won;
            let stored = inflate(stored);
            let texts = stored["t"].as_array().unwrap();
            let moves = stored["m"].as_array().unwrap();
            assert_eq!(texts[0].as_str().unwrap(), dealt, "deal {deal}");
            assert_eq!(row[5].as_u64().unwrap() as usize, moves.len());
            let rules: G::Rules = "".parse().unwrap();
            let mut state = G::from_position_text(dealt, rules).unwrap();
            for (mv, text) in moves.iter().zip(&texts[1..]) {
                let ply = state
                    .parse_ply(&PlyText::Move(mv.as_str().unwrap().to_string()))
                    .unwrap();
                state.try_play_ply(&ply).expect("a legal move");
                assert_eq!(state.position_text(), text.as_str().unwrap());
            }
            match state.status() {
                Status::Over(outcome) => {
                    assert_eq!(outcome.payoffs.get(0) >= state.payoff_range().1, won);
                    assert_eq!(
                        data["reasons"][row[4].as_u64().unwrap() as usize],
                        outcome.reason
                    );
                }
                other => panic!("deal {deal} of {policy} stops at {other:?}"),
            }
        }
        assert!(won_somewhere, "no deal shown was won");
        rows_shown.len()
    }
}

/// Sends `request` to `address` and returns the answer and how long it
/// took.
fn exchange(address: &str, request: &str) -> (String, std::time::Duration) {
    let started = std::time::Instant::now();
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    (reply, started.elapsed())
}

#[test]
fn the_watch_server_answers_while_it_writes_a_page_and_to_its_own_host_only() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;
    let dir = scratch("watch-serving");
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("games.jsonl");
    std::fs::write(&log, "").unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let port = address.rsplit(':').next().unwrap().to_string();
    // Every page but the first takes 3 s to write, as a large log's does.
    let make = |version: u64| {
        if version > 1 {
            std::thread::sleep(Duration::from_secs(3));
        }
        Ok(format!("page {version}"))
    };
    let stop = AtomicBool::new(false);
    /// Stops the server however the test ends, so that a failed check
    /// fails the test instead of leaving it waiting on the server.
    struct StopOnDrop<'a>(&'a AtomicBool);
    impl Drop for StopOnDrop<'_> {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }
    std::thread::scope(|scope| {
        let server =
            scope.spawn(|| norn::arena::view::serve_page(&listener, &log, &make, &stop, &|_| {}));
        let stopping = StopOnDrop(&stop);
        let get = |path: &str, host: &str| {
            exchange(
                &address,
                &format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n"),
            )
        };
        let (first, _) = get("/", &address);
        assert!(first.ends_with("page 1"), "{first}");
        // A client that sends a byte and then nothing holds no one up.
        let mut slow = std::net::TcpStream::connect(&address).unwrap();
        slow.write_all(b"G").unwrap();
        let (version, took) = get("/version", &format!("localhost:{port}"));
        assert!(version.ends_with("\r\n\r\n1"), "{version}");
        assert!(
            took < Duration::from_secs(1),
            "{took:?} behind a slow client"
        );
        // While the next page is written, the last one is served at once.
        std::fs::write(&log, "a change\n").unwrap();
        std::thread::sleep(Duration::from_millis(1200));
        let (version, took) = get("/version", &address);
        assert!(version.ends_with("\r\n\r\n1"), "{version}");
        assert!(
            took < Duration::from_secs(1),
            "{took:?} while a page was written"
        );
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while !get("/version", &address).0.ends_with("\r\n\r\n2") {
            assert!(std::time::Instant::now() < deadline, "no second page");
            std::thread::sleep(Duration::from_millis(100));
        }
        // A page of another site whose name points here (DNS rebinding)
        // reads nothing, nor does a request without a host.
        let (foreign, _) = get("/", &format!("evil.example:{port}"));
        assert!(foreign.starts_with("HTTP/1.1 421"), "{foreign}");
        let (nameless, _) = exchange(&address, "GET / HTTP/1.1\r\n\r\n");
        assert!(nameless.starts_with("HTTP/1.1 421"), "{nameless}");
        drop(slow);
        drop(stopping);
        server.join().unwrap().unwrap();
    });
}

#[test]
fn a_win_rate_run_under_way_has_a_page_of_its_rates_so_far() {
    let (run, sweep) = win_rate_run_and_sweep("-under-way", "greedy", "spacing=2..3");
    let finished = std::fs::read_to_string(run.join("summary.json")).unwrap();
    let finished: Value = serde_json::from_str(&finished).unwrap();
    // What a run under way holds: its configuration and its deal log,
    // here without the last deals.
    for dir in [&run, &sweep] {
        for report in [
            "summary.json",
            "deals.csv",
            "sweep.json",
            "sweep.svg",
            "view.html",
        ] {
            let _ = std::fs::remove_file(dir.join(report));
        }
    }
    let log = std::fs::read_to_string(run.join("deals.jsonl")).unwrap();
    let kept: Vec<&str> = log.lines().take(18).collect();
    std::fs::write(run.join("deals.jsonl"), kept.join("\n") + "\n").unwrap();
    succeeds(&["view", run.to_str().unwrap(), "--deals", "3"]);
    let page = std::fs::read_to_string(run.join("view.html")).unwrap();
    assert!(page.contains("its log holds 18 of its 24 deals"), "{page}");
    assert!(page.contains("Win rate per policy"));
    // The deals the log holds, counted per policy as the summary counted
    // them.
    let wins_of = |policy: usize| {
        kept.iter()
            .map(|line| serde_json::from_str::<Value>(line).unwrap())
            .filter(|line| line["policy"] == policy && line["won"] == true)
            .count()
    };
    let table = page.split("<pre>").nth(1).unwrap();
    for (policy, spec) in ["random", "greedy"].iter().enumerate() {
        let row = table.lines().find(|line| line.starts_with(spec)).unwrap();
        let numbers: Vec<&str> = row.split_whitespace().collect();
        let deals = kept
            .iter()
            .filter(|line| serde_json::from_str::<Value>(line).unwrap()["policy"] == policy)
            .count();
        assert_eq!(numbers[1], deals.to_string(), "{row}");
        assert_eq!(numbers[2], wins_of(policy).to_string(), "{row}");
    }
    assert!(finished["policies"][0]["deals"] == 12);
    succeeds(&["view", sweep.to_str().unwrap()]);
    let page = std::fs::read_to_string(sweep.join("view.html")).unwrap();
    assert!(page.contains("its log holds 48 of its 48 deals"), "{page}");
    assert!(page.contains("Win rate against spacing"));
}

#[test]
fn a_page_is_never_written_over_a_file_of_its_run() {
    let run = scratch("page-over-the-run");
    tournament("hnefatafl", &run);
    let log = run.join("games.jsonl");
    let logged = std::fs::read(&log).unwrap();
    let text = |path: PathBuf| path.to_str().unwrap().to_string();
    let run_text = text(run.clone());
    for (shown, out) in [
        (run_text.clone(), run.join("games.jsonl")),
        (text(log.clone()), run.join("games.jsonl")),
        (run_text.clone(), run.join("config.json")),
        (run_text.clone(), run.join("summary.json")),
    ] {
        let error = fails(&["view", &shown, "--out", &text(out.clone())]);
        assert!(
            error.contains("overwrite") || error.contains(".html"),
            "{error}"
        );
    }
    // A link named as a page but pointing at a file of the run is judged
    // by what it points at, since the page would be written there.
    #[cfg(unix)]
    {
        let config = std::fs::read(run.join("config.json")).unwrap();
        let link = run.join("disguised.html");
        std::os::unix::fs::symlink(run.join("config.json"), &link).unwrap();
        let error = fails(&["view", &run_text, "--out", &text(link.clone())]);
        assert!(error.contains(".html"), "{error}");
        assert_eq!(std::fs::read(run.join("config.json")).unwrap(), config);
        std::fs::remove_file(&link).unwrap();
    }
    assert_eq!(
        std::fs::read(&log).unwrap(),
        logged,
        "the log was overwritten"
    );
    // A page of another name is written there, whole.
    succeeds(&["view", &run_text, "--out", &text(run.join("games.html"))]);
    let page = std::fs::read_to_string(run.join("games.html")).unwrap();
    assert!(page.trim_end().ends_with("</html>"));
    let left: Vec<_> = std::fs::read_dir(&run)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".partial"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
