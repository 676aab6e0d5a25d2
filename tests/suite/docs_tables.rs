//! The documentation's tables of options are generated from the options'
//! declarations ([`norn::core::Configurable`]): every table between
//! `<!-- generated: options of WHAT -->` and `<!-- end of generated table -->`
//! in docs/ must equal the table the code declares, and every registered
//! game's rules and every agent kind's options must have one. `NORN_UPDATE_DOCS=1 cargo test --release
//! docs_tables` rewrites the tables from the code.

use norn::agents::{AlphaBetaEvaluation, AzOptions, EquilibriumOptions, MctsEvaluation};
use norn::arena::Adjudication;
use norn::companions::fenrir_cards::policies::{HonestPlayout, OpenHandOptions};
use norn::core::{Configurable, Game, options_table};
use norn::registry::{self, GameVisitor, Registered};
use norn::search::guided::GuidedConfig;
use norn::search::{AlphaBetaConfig, IsmctsConfig, MctsConfig, SmMctsConfig};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const OPENING: &str = "<!-- generated: options of ";
const CLOSING: &str = "<!-- end of generated table -->";

/// The table of every configuration the documentation must show, by its name.
fn declared_tables() -> BTreeMap<String, String> {
    struct RulesTable<'a>(&'a mut BTreeMap<String, String>);

    impl GameVisitor for RulesTable<'_> {
        type Output = ();

        fn visit<G: Registered>(&mut self) {
            let rules = <G as Game>::Rules::WHAT;
            self.0
                .insert(rules.to_string(), options_table::<<G as Game>::Rules>());
        }
    }

    let mut tables = BTreeMap::new();
    for game in registry::games() {
        registry::visit(game.name, &mut RulesTable(&mut tables)).unwrap();
    }
    insert::<AlphaBetaConfig>(&mut tables);
    insert::<AlphaBetaEvaluation>(&mut tables);
    insert::<MctsConfig>(&mut tables);
    insert::<MctsEvaluation>(&mut tables);
    insert::<IsmctsConfig>(&mut tables);
    insert::<SmMctsConfig>(&mut tables);
    insert::<EquilibriumOptions>(&mut tables);
    insert::<GuidedConfig>(&mut tables);
    insert::<AzOptions>(&mut tables);
    insert::<HonestPlayout>(&mut tables);
    insert::<OpenHandOptions>(&mut tables);
    insert::<Adjudication>(&mut tables);
    tables
}

/// Adds the table of `C`'s options.
fn insert<C: Configurable>(tables: &mut BTreeMap<String, String>) {
    tables.insert(C::WHAT.to_string(), options_table::<C>());
}

fn markdown_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            markdown_files(&path, files);
        } else if path.extension().is_some_and(|extension| extension == "md") {
            files.push(path);
        }
    }
}

/// `text` with each generated table replaced by the declared one; the names
/// of the tables it holds, and those it names that nothing declares.
fn regenerate(text: &str, tables: &BTreeMap<String, String>) -> (String, Vec<String>, Vec<String>) {
    let (mut output, mut found, mut unknown) = (String::new(), Vec::new(), Vec::new());
    let mut rest = text;
    while let Some(start) = rest.find(OPENING) {
        let header_end = start + rest[start..].find("-->").expect("a closed marker") + 3;
        let name = rest[start + OPENING.len()..header_end - 3]
            .trim()
            .to_string();
        let end = header_end + rest[header_end..].find(CLOSING).expect("an end marker");
        output.push_str(&rest[..header_end]);
        output.push('\n');
        match tables.get(&name) {
            Some(table) => output.push_str(table),
            None => {
                output.push_str(rest[header_end..end].trim_start_matches('\n'));
                unknown.push(name.clone());
            }
        }
        found.push(name);
        rest = &rest[end..];
    }
    output.push_str(rest);
    (output, found, unknown)
}

#[test]
fn the_documented_options_are_the_declared_ones() {
    let tables = declared_tables();
    let mut files = Vec::new();
    markdown_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("docs"),
        &mut files,
    );
    let update = std::env::var_os("NORN_UPDATE_DOCS").is_some();
    let mut documented = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let (generated, found, unknown) = regenerate(&text, &tables);
        assert!(
            unknown.is_empty(),
            "{}: tables of {unknown:?}, which no code declares",
            file.display()
        );
        if generated != text {
            if update {
                std::fs::write(&file, generated).unwrap();
            } else {
                panic!(
                    "{}: a generated table differs from the code's declarations; \
                     NORN_UPDATE_DOCS=1 cargo test --release docs_tables rewrites it",
                    file.display()
                );
            }
        }
        documented.extend(found);
    }
    for name in tables.keys() {
        assert!(
            documented.contains(name),
            "no page of docs/ shows the options of {name}: add `{OPENING}{name} -->` and `{CLOSING}`"
        );
    }
}
