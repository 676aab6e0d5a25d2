//! The memory a resume, a merge and a page take grows with the work, not
//! with the log: every allocation of this test binary is counted (its own
//! allocator), and reading back a log of 2,000 games of 100 plies (about
//! 10 MB as games in memory) must peak far below what holding its games
//! would take. The summaries must be those of the run that wrote the log.
//!
//! One binary of its own, its tests one at a time: the count is the whole
//! process's.

use norn::arena::view::{ViewOptions, view_page};
use norn::arena::{
    Openings, RunOptions, RunResult, Shard, TournamentConfig, TournamentSummary, Unwatched,
    merge_shards, run_logged_tournament,
};
use norn::core::Game;
use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
use norn::registry::build_agent;
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Counts the bytes allocated now and the most at any moment.
struct Counting;

static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn allocated(bytes: usize) {
    let now = NOW.fetch_add(bytes, Ordering::SeqCst) + bytes;
    PEAK.fetch_max(now, Ordering::SeqCst);
}

fn freed(bytes: usize) {
    NOW.fetch_sub(bytes, Ordering::SeqCst);
}

// SAFETY: every call goes to the system allocator unchanged; the counts
// are only read.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as the caller of `alloc` promises.
        let pointer = unsafe { System.alloc(layout) };
        if !pointer.is_null() {
            allocated(layout.size());
        }
        pointer
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as the caller of `alloc_zeroed` promises.
        let pointer = unsafe { System.alloc_zeroed(layout) };
        if !pointer.is_null() {
            allocated(layout.size());
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        // SAFETY: as the caller of `dealloc` promises.
        unsafe { System.dealloc(pointer, layout) };
        freed(layout.size());
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as the caller of `realloc` promises.
        let moved = unsafe { System.realloc(pointer, layout, new_size) };
        if !moved.is_null() {
            freed(layout.size());
            allocated(new_size);
        }
        moved
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The tests measure one at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// What `work` returns, and the most bytes it held at once beyond what
/// was allocated before it began.
fn peak_of<T>(work: impl FnOnce() -> T) -> (T, usize) {
    let before = NOW.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    let result = work();
    (result, PEAK.load(Ordering::SeqCst) - before)
}

/// The most a read-back may hold: its batch of lines being checked and
/// a few numbers per game, where the games themselves take about 10 MB.
const READ_BACK_BYTES: usize = 4 << 20;

/// 2,000 random games of Hnefatafl, each cut at 100 plies.
fn config() -> TournamentConfig {
    TournamentConfig {
        game: "hnefatafl".into(),
        rules: String::new(),
        agents: vec!["random".into(), "random".into()],
        games_per_pair: 2000,
        seed: 3,
        max_plies: Some(100),
        anchor: None,
        gauntlet: false,
        time_control: None,
        openings: Openings::Start,
        adjudication: None,
    }
}

fn start() -> Hnefatafl {
    Hnefatafl::new(HnefataflRules::default())
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn run(dir: &Path, shard: Shard) -> RunResult {
    let stop = AtomicBool::new(false);
    let options = RunOptions {
        threads: 2,
        shard,
        out_dir: Some(dir.to_path_buf()),
        stop: &stop,
        progress: &Unwatched,
        repair: false,
        force_resume: false,
        max_forfeits: norn::arena::DEFAULT_MAX_FORFEITS,
        record_search: true,
    };
    run_logged_tournament(&config(), &start(), &build_agent::<Hnefatafl>, &options).unwrap()
}

/// The summary as JSON without what differs from run to run (the time of
/// each decision).
fn summary_without_times(summary: &TournamentSummary) -> serde_json::Value {
    let mut json = serde_json::to_value(summary).unwrap();
    for agent in json["agents"].as_array_mut().unwrap() {
        agent.as_object_mut().unwrap().remove("search");
    }
    json
}

#[test]
fn a_resume_and_a_page_hold_a_few_numbers_per_game() {
    let _alone = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let dir = scratch_dir("memory-resume");
    let played = run(&dir, Shard::ALL);
    assert_eq!(played.played, 2000);
    let log_bytes = std::fs::metadata(dir.join("games.jsonl")).unwrap().len();
    assert!(log_bytes > 2_000_000, "{log_bytes}");

    let (resumed, peak) = peak_of(|| run(&dir, Shard::ALL));
    assert_eq!(resumed.resumed, 2000);
    assert!(peak < READ_BACK_BYTES, "a resume peaked at {peak} bytes");
    // The summary is the uninterrupted run's, search means and all.
    assert_eq!(
        serde_json::to_string(&resumed.summary).unwrap(),
        serde_json::to_string(&played.summary).unwrap()
    );

    // A page of the run holds its first 10 games, and counts them all.
    let options = ViewOptions {
        games: 10,
        ..ViewOptions::default()
    };
    let (page, peak) =
        peak_of(|| view_page::<Hnefatafl>(&dir, &HnefataflRules::default(), options));
    let page = page.unwrap();
    assert!(peak < READ_BACK_BYTES, "a page peaked at {peak} bytes");
    assert!(page.contains("The list holds the first 10 of the 2000 games"));
    assert!(
        page.contains("2000 of 2000 games played"),
        "the report counts every game"
    );
    let data = page
        .split("<script type=\"application/json\" id=\"view-data\">")
        .nth(1)
        .and_then(|rest| rest.split("</script>").next())
        .unwrap();
    let data: serde_json::Value = serde_json::from_str(data).unwrap();
    let listed: Vec<u64> = data["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row[0].as_u64().unwrap())
        .collect();
    assert_eq!(listed, (0..10).collect::<Vec<_>>());
}

#[test]
fn a_merge_copies_the_shards_logs_a_line_at_a_time() {
    let _alone = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let whole = run(&scratch_dir("memory-whole"), Shard::ALL);
    let shards: Vec<PathBuf> = ["1/2", "2/2"]
        .iter()
        .map(|shard| {
            let dir = scratch_dir(&format!("memory-shard-{}", shard.replace('/', "-of-")));
            run(&dir, Shard::parse(shard).unwrap());
            dir
        })
        .collect();
    let out = scratch_dir("memory-merged");
    let (merged, peak) = peak_of(|| merge_shards::<Hnefatafl>(&shards, &out, false).unwrap());
    assert!(peak < READ_BACK_BYTES, "a merge peaked at {peak} bytes");
    let summary = TournamentSummary::of_games(&merged.config, &merged.games, false);
    assert_eq!(
        summary_without_times(&summary.with_provenance(&merged.provenance)),
        summary_without_times(&whole.summary)
    );
    let logged = std::fs::read_to_string(out.join("games.jsonl")).unwrap();
    let indices: Vec<usize> = logged
        .lines()
        .map(|line| {
            serde_json::from_str::<serde_json::Value>(line).unwrap()["index"]
                .as_u64()
                .unwrap() as usize
        })
        .collect();
    assert_eq!(indices, (0..2000).collect::<Vec<_>>());
}

/// A page that lists every game is mostly their packed data: it holds
/// that data twice at most (once packed, once in the document) beside what
/// reading the log back holds, not once more for each copy a document
/// grown by doubling makes, nor the pictures of hundreds of games at once.
#[test]
fn a_page_of_every_game_holds_its_games_data_about_twice() {
    let _alone = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let dir = scratch_dir("memory-page");
    run(&dir, Shard::ALL);
    let options = ViewOptions {
        games: 2000,
        ..ViewOptions::default()
    };
    let (page, peak) =
        peak_of(|| view_page::<Hnefatafl>(&dir, &HnefataflRules::default(), options));
    let page = page.unwrap();
    assert!(page.contains("2000 of 2000 games played"));
    assert!(
        peak < 2 * page.len() + 2 * READ_BACK_BYTES,
        "a page of {} bytes peaked at {peak} bytes",
        page.len()
    );
}
