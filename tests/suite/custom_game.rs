//! A game from outside the crate as a full citizen: examples/custom_game.rs
//! writes Nim against the public traits, checks alpha-beta and MCTS against
//! Bouton's theorem, and runs norn's command line over Nim beside the
//! built-in games. `cargo test` builds the examples; these tests run it.

use std::path::PathBuf;
use std::process::{Command, Output};

/// The example's binary, built beside this test binary's folder.
fn custom_game(args: &[&str]) -> Output {
    let test_binary = std::env::current_exe().expect("the test binary has a path");
    let profile_dir = test_binary
        .parent()
        .and_then(|deps| deps.parent())
        .expect("test binaries live in target/PROFILE/deps");
    let example: PathBuf = profile_dir.join("examples").join("custom_game");
    Command::new(&example)
        .args(args)
        .output()
        .unwrap_or_else(|error| panic!("cannot run {}: {error}", example.display()))
}

#[test]
fn the_searchers_agree_with_bouton_on_a_game_written_outside_the_crate() {
    let output = custom_game(&[]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Every position with heaps up to 3, 4 and 5 but the empty one.
    assert!(
        stdout.contains("alpha-beta agrees with Bouton on all 119 positions"),
        "{stdout}"
    );
    assert!(stdout.contains("leaving nim-sum 0"), "{stdout}");
}

#[test]
fn the_command_line_runs_over_a_users_game_beside_the_built_in_ones() {
    // From heaps of 3, 4 and 5: each of the 12 first moves taking k
    // counters leaves 12 - k replies, 144 - (6 + 10 + 15) in all.
    let output = custom_game(&["perft", "nim", "--depth", "2"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.starts_with("perft(2) = 113 "), "{stdout}");

    let help = custom_game(&["perft", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("nim:") && help.contains("hnefatafl:"),
        "{help}"
    );

    let unknown = custom_game(&["perft", "chess", "--depth", "1"]);
    assert!(!unknown.status.success());
    let error = String::from_utf8_lossy(&unknown.stderr);
    assert!(error.contains("invalid value 'chess'"), "{error}");
}
