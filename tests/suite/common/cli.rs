//! Running the `norn` binary as a user does, for the command-line tests.

#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `norn` with `args` and no input.
pub fn norn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_norn"))
        .args(args)
        .output()
        .expect("the norn binary runs")
}

/// Runs `norn` with `args`, writing `input` to its standard input.
pub fn norn_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_norn"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the norn binary runs");
    child
        .stdin
        .take()
        .expect("standard input is piped")
        .write_all(input.as_bytes())
        .expect("norn reads its input");
    child.wait_with_output().expect("norn ends")
}

/// The standard output of a run, as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The JSON object a successful run printed.
pub fn json(output: &Output) -> serde_json::Value {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

/// Asserts that the command failed with one line on standard error that
/// mentions `expected`.
pub fn assert_fails_with(args: &[&str], expected: &str) {
    let output = norn(args);
    assert!(!output.status.success(), "{args:?} should fail");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    assert!(stderr.contains(expected), "{args:?}: {stderr}");
}

/// The JSON file a run wrote at `path`.
pub fn read_json(path: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{path:?}: {error}"));
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{path:?}: {error}"))
}

/// `value` without its search records (every `search` key, in the game
/// log's lines and the summary's agents): they hold the times of
/// decisions, which differ from run to run while the games do not.
pub fn without_search_records(mut value: serde_json::Value) -> serde_json::Value {
    match &mut value {
        serde_json::Value::Object(map) => {
            map.remove("search");
            for entry in map.values_mut() {
                *entry = without_search_records(entry.take());
            }
        }
        serde_json::Value::Array(items) => {
            for item in items.iter_mut() {
                *item = without_search_records(item.take());
            }
        }
        _ => {}
    }
    value
}
