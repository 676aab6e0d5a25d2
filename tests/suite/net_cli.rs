//! `norn net`: a fresh network written and described, and bad input
//! refused on one line.

use crate::common::cli::{assert_fails_with, json, norn, stdout};

fn scratch(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("norn-net-cli-{name}-{}", std::process::id()))
}

#[test]
fn init_writes_a_network_that_info_describes() {
    let path = scratch("init.safetensors");
    let file = path.to_str().unwrap();
    let arch = "blocks=1,channels=4";
    let output = norn(&[
        "net",
        "init",
        "hnefatafl",
        "--out",
        file,
        "--seed",
        "7",
        "--arch",
        arch,
    ]);
    assert!(output.status.success(), "{output:?}");
    assert!(stdout(&output).contains("1 blocks of 4 channels"));
    let info = json(&norn(&["net", "info", file, "--json"]));
    let description = &info["description"];
    assert_eq!(description["game"], "hnefatafl");
    assert_eq!(description["input_shape"], serde_json::json!([4, 11, 11]));
    assert_eq!(description["num_actions"], 2420);
    assert_eq!(description["value_layout"], "to-move");
    assert_eq!(info["plays"], true);
    // The parameters are the tensors' sizes added up.
    let tensors = info["tensors"].as_array().unwrap();
    let counted: u64 = tensors
        .iter()
        .map(|tensor| {
            let shape = tensor[1].as_array().unwrap();
            shape
                .iter()
                .map(|size| size.as_u64().unwrap())
                .product::<u64>()
        })
        .sum();
    assert_eq!(info["parameters"], counted);
    // The digest is the file's, as sha256sum gives it.
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(info["bytes"], bytes.len());
    let again = scratch("again.safetensors");
    let other = again.to_str().unwrap();
    norn(&[
        "net",
        "init",
        "hnefatafl",
        "--out",
        other,
        "--seed",
        "7",
        "--arch",
        arch,
    ]);
    assert_eq!(
        std::fs::read(&again).unwrap(),
        bytes,
        "the same seed, the same file"
    );
    let text = stdout(&norn(&["net", "info", file]));
    assert!(text.contains("blocks.0.conv2.weight"), "{text}");
    assert!(text.contains("plays        yes"), "{text}");
    std::fs::remove_file(&path).unwrap();
    std::fs::remove_file(&again).unwrap();
}

#[test]
fn bad_input_is_one_line() {
    let out = scratch("bad.safetensors");
    let file = out.to_str().unwrap();
    assert_fails_with(
        &["net", "init", "chess", "--out", file, "--seed", "1"],
        "chess",
    );
    assert_fails_with(
        &[
            "net",
            "init",
            "thud",
            "--out",
            file,
            "--seed",
            "1",
            "--arch",
            "blocks=999",
        ],
        "`blocks` must be from 0 to 64",
    );
    assert_fails_with(
        &[
            "net",
            "init",
            "nibelungen",
            "--out",
            file,
            "--seed",
            "1",
            "--arch",
            "kind=residual",
        ],
        "[C, H, W]",
    );
    assert_fails_with(
        &[
            "net",
            "init",
            "hnefatafl",
            "--out",
            file,
            "--seed",
            "1",
            "--rules",
            "x=\u{1b}",
        ],
        "\\u{1b}",
    );
    assert_fails_with(
        &[
            "net",
            "init",
            "hnefatafl",
            "--out",
            "/nonexistent/dir/net",
            "--seed",
            "1",
        ],
        "cannot use the file",
    );
    std::fs::write(&out, b"\x10\x00\x00\x00\x00\x00\x00\x00{\"a\":1}").unwrap();
    assert_fails_with(&["net", "info", file], "not a safetensors file");
    std::fs::remove_file(&out).unwrap();
    assert_fails_with(&["net", "info", file], "cannot use the file");
}
