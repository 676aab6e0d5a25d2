//! Self-play in worker processes (`norn train ... --workers N` and
//! `--worker I/N`): the checkpoints are those of the run without workers,
//! a worker killed in the middle of its games leaves nothing the trainer
//! takes, and a worker of another run, or a trainer without workers, is
//! refused on one line.

use crate::common::cli::norn;
use crate::train::{checkpoints, cli_args, cli_run, scratch_dir};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The generations of the runs here.
const GENERATIONS: &str = "3";

/// Starts `norn train` on `dir` (the suite's small Hnefatafl run) with
/// `extra` flags after the run's, its output kept.
fn start(dir: &Path, extra: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_norn"))
        .args(cli_args(dir, &[("--generations", GENERATIONS)]))
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the norn binary runs")
}

fn succeeds(child: Child, what: &str) {
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The directory a worker plays its part of generation 1 in, once there.
fn playing(dir: &Path) -> bool {
    std::fs::read_dir(dir.join("samples/gen-00001")).is_ok_and(|entries| {
        entries.flatten().any(|entry| {
            entry
                .file_name()
                .to_string_lossy()
                .starts_with(".worker-1-of-2-")
        })
    })
}

#[test]
fn workers_in_processes_of_their_own_make_the_checkpoints_of_the_run_without_them() {
    let alone = scratch_dir("workers-alone");
    assert!(
        cli_run(&alone, &[("--generations", GENERATIONS)])
            .status
            .success()
    );

    let shared = scratch_dir("workers-shared");
    // A worker started before the trainer waits for the run; this one is
    // killed as soon as it plays, and started again.
    let mut killed = start(&shared, &["--worker", "1/2", "--wait", "120"]);
    let trainer = start(&shared, &["--workers", "2", "--wait", "120"]);
    let deadline = Instant::now() + Duration::from_secs(120);
    while !playing(&shared) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
    killed.kill().unwrap();
    killed.wait().unwrap();
    assert!(
        !shared.join("samples/gen-00001/worker-1-of-2.json").exists(),
        "killed before its part was written"
    );
    let first = start(&shared, &["--worker", "1/2", "--wait", "120"]);
    let second = start(&shared, &["--worker", "2/2", "--wait", "120"]);
    succeeds(trainer, "the trainer");
    succeeds(first, "worker 1/2");
    succeeds(second, "worker 2/2");
    let generations: u64 = GENERATIONS.parse().unwrap();
    assert!(
        checkpoints(&shared, generations) == checkpoints(&alone, generations),
        "the checkpoints differ from the run without workers"
    );
    let leftovers: Vec<String> = std::fs::read_dir(shared.join("samples/gen-00001"))
        .unwrap()
        .flatten()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".partial"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // A worker of another run is refused at once.
    let mut args = cli_args(&alone, &[("--seed", "4")]);
    args.extend(["--worker", "1/2"]);
    let output = norn(&args);
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    let last = error.trim().lines().last().unwrap_or_default();
    assert!(
        last.starts_with("error:") && last.contains("another seed"),
        "{error}"
    );
}

#[test]
fn a_trainer_whose_workers_never_come_stops_naming_them() {
    let dir = scratch_dir("workers-absent");
    let mut args = cli_args(&dir, &[]);
    args.extend(["--workers", "2", "--wait", "0.3"]);
    let output = norn(&args);
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        error.contains("no games from worker 1/2, 2/2 after 0.3 s"),
        "{error}"
    );
    // The run is there to resume: its first checkpoint kept.
    assert!(dir.join("checkpoints/0/network.safetensors").exists());
    for (flags, expected) in [
        (vec!["--workers", "0"], "workers must be from 1"),
        (vec!["--workers", "5"], "workers must be from 1"),
        (vec!["--workers", "2", "--wait", "0"], "--wait"),
        (vec!["--workers", "2", "--wait", "NaN"], "--wait"),
        (vec!["--worker", "3/2"], "--worker"),
    ] {
        let mut args = cli_args(&dir, &[]);
        args.extend(flags);
        let output = norn(&args);
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(error.contains(expected), "{expected}: {error}");
    }
}
