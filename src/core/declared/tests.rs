//! The declared options' reading, checking, writing and tables, on a
//! configuration that has an option of every kind.

use super::*;

#[derive(Clone, Debug, PartialEq)]
struct Search {
    depth: Option<u64>,
    weight: f64,
    shape: usize,
    threads: u64,
    widening: Option<f64>,
    exponent: f64,
    name: String,
}

impl Default for Search {
    fn default() -> Self {
        Search {
            depth: Some(4),
            weight: 0.5,
            shape: 0,
            threads: 1,
            widening: None,
            exponent: 0.5,
            name: "plain".into(),
        }
    }
}

/// Every option of [`Search`], in the order its text is written.
const SEARCH_OPTIONS: &[Declared<Search>] = &[
    crate::field_option!(
        "depth",
        depth,
        Kind::Optional(&Kind::Whole { min: 1, max: 100 }, "none"),
        "plies";
        optional Value::Whole, whole
    ),
    crate::number_option!("weight", weight, 0.0, 1.0, "a share"),
    Declared {
        key: "shape",
        kind: Kind::Choice(&["round", "square", "flat"]),
        help: "a choice",
        get: |search| Value::Choice(search.shape),
        set: |search, value| {
            search.shape = value.choice();
            Ok(())
        },
    },
    crate::threads_option!("threads", threads, "threads"),
    crate::field_option!(
        "widen",
        widening,
        Kind::Optional(
            &Kind::Number {
                min: 0.0,
                max: f64::INFINITY,
            },
            "off",
        ),
        "width";
        optional Value::Number, number
    ),
    Declared {
        key: "widen-exp",
        kind: Kind::Number { min: 0.0, max: 1.0 },
        help: "exponent",
        get: |search| match search.widening {
            Some(_) => Value::Number(search.exponent),
            None => Value::Inapplicable,
        },
        set: |search, value| {
            search.exponent = value.number();
            Ok(())
        },
    },
    Declared {
        key: "name",
        kind: Kind::Text("a lower-case word"),
        help: "a name",
        get: |search| Value::Text(search.name.clone()),
        set: |search, value| {
            let name = value.text();
            if name.chars().all(|c| c.is_ascii_lowercase()) {
                search.name = name.to_string();
                Ok(())
            } else {
                Err(format!("`name` is a lower-case word, not `{name}`"))
            }
        },
    },
];

crate::configurable!(Search, "search options", SEARCH_OPTIONS, {
    fn check_together(&self) -> Result<(), String> {
        if self.depth.is_none() && self.threads > 1 {
            return Err("a search without `depth` runs on one thread".into());
        }
        Ok(())
    }

    fn complete(&mut self, given: &[&str]) {
        if given.contains(&"widen-exp") && self.widening.is_none() {
            self.widening = Some(1.0);
        }
    }
});

fn refusal(text: &str) -> String {
    read_options::<Search>(text).unwrap_err().to_string()
}

#[test]
fn every_written_configuration_reads_back_to_itself() {
    assert_reads_back::<Search>(&[
        "",
        "depth=none",
        "weight=0.125,shape=flat,threads=2",
        "widen=2.5,widen-exp=0.25",
        "widen-exp=0.75",
        "name=deep,weight=1",
    ]);
    assert_eq!(
        write_options(&Search::default()),
        "depth=4,weight=0.5,shape=round,threads=1,widen=off,name=plain"
    );
}

#[test]
fn bad_values_and_keys_are_refused_naming_the_option() {
    assert!(refusal("depth=0").contains("`depth` must be from 1 to 100, not 0"));
    assert!(refusal("depth=deep").contains(
        "`deep` is not a valid value for `depth`: it takes a whole number from 1 to 100 or `none`"
    ));
    assert!(refusal("weight=NaN").contains("`weight` must be from 0 to 1, not `NaN`"));
    assert!(refusal("weight=x").contains("`x` is not a valid value for `weight`"));
    assert!(refusal("widen=-1").contains("`widen` must be a number of at least 0"));
    assert!(refusal("shape=oval").contains("`shape` takes round, square or flat, not `oval`"));
    assert!(refusal("threads=0").contains("`threads` must be from 1 to"));
    assert!(refusal("name=Deep").contains("`name` is a lower-case word"));
    assert!(refusal("colour=red").contains("unknown option `colour` (valid options: depth, weight, shape, threads, widen, widen-exp, name)"));
    assert!(refusal("depth=none,threads=2").contains("runs on one thread"));
    assert!(refusal("depth=1,depth=2").contains("`depth` is given twice"));
}

#[test]
fn a_configuration_built_by_hand_is_checked_like_text() {
    assert_eq!(validate_options(&Search::default()), Ok(()));
    let too_deep = Search {
        depth: Some(101),
        ..Search::default()
    };
    assert_eq!(
        validate_options(&too_deep),
        Err("`depth` must be from 1 to 100, not 101".to_string())
    );
    let no_shape = Search {
        shape: 3,
        ..Search::default()
    };
    assert!(validate_options(&no_shape).is_err());
    let bad_name = Search {
        name: "X".into(),
        ..Search::default()
    };
    assert!(
        validate_options(&bad_name)
            .unwrap_err()
            .contains("lower-case")
    );
    let crowded = Search {
        depth: None,
        threads: 2,
        ..Search::default()
    };
    assert!(
        validate_options(&crowded)
            .unwrap_err()
            .contains("one thread")
    );
}

#[test]
fn limits_are_positive_numbers_or_none() {
    let read = |text: &str| read_value("ply-limit", &LIMIT, text);
    assert_eq!(
        read("40").map(|value| value.limit()),
        Ok(NonZeroU32::new(40))
    );
    assert_eq!(read("none"), Ok(Value::Absent));
    assert_eq!(Value::Absent.limit(), None);
    assert_eq!(value_text(&LIMIT, &Value::from_limit(None)), "none");
    assert_eq!(
        value_text(&LIMIT, &Value::from_limit(NonZeroU32::new(7))),
        "7"
    );
    for (text, problem) in [
        (
            "0",
            "`ply-limit` must be a positive number (at most 4294967295), not 0",
        ),
        ("4294967296", "not 4294967296"),
        (
            "x",
            "`x` is not a valid value for `ply-limit`: it takes a positive number or `none`",
        ),
    ] {
        let refusal = read(text).unwrap_err();
        assert!(refusal.contains(problem), "{text}: {refusal}");
    }
}

#[test]
fn the_table_lists_every_option_with_its_default() {
    let table = options_table::<Search>();
    assert_eq!(table.lines().count(), 2 + Search::OPTIONS.len());
    assert!(
        table.contains("| `depth` | a whole number from 1 to 100, or `none` | `4` | plies |"),
        "{table}"
    );
    assert!(
        table.contains("| `widen-exp` | a number from 0 to 1 | - | exponent |"),
        "{table}"
    );
    assert!(
        table.contains("| `shape` | round, square or flat | `round` | a choice |"),
        "{table}"
    );
}

/// Whole numbers kept in integers of several widths, one of them in an
/// `Option` that may stay unset.
#[derive(Clone, Debug, Default, PartialEq)]
struct Deal {
    players: u8,
    hand: Option<u32>,
    seats: usize,
}

/// Every option of [`Deal`], in the order its text is written.
const DEAL_OPTIONS: &[Declared<Deal>] = &[
    crate::whole_option!("players", players, 0, 255, "players"),
    crate::whole_option!("hand", hand, 1, 52, "cards a hand, unset: the deck decides"),
    crate::whole_option!("seats", seats, 0, 9, "seats"),
];

crate::configurable!(Deal, "deal options", DEAL_OPTIONS);

#[test]
fn whole_numbers_fill_fields_of_any_width_and_unset_options_are_not_written() {
    let deal: Deal = read_options("players=255,seats=9").unwrap();
    assert_eq!(
        deal,
        Deal {
            players: 255,
            hand: None,
            seats: 9
        }
    );
    assert_eq!(write_options(&deal), "players=255,seats=9");
    let dealt: Deal = read_options("hand=13").unwrap();
    assert_eq!(dealt.hand, Some(13));
    assert_eq!(write_options(&dealt), "players=0,hand=13,seats=0");
    assert!(
        read_options::<Deal>("hand=0")
            .unwrap_err()
            .to_string()
            .contains("`hand` must be from 1 to 52, not 0")
    );
}

#[test]
#[should_panic(expected = "outside the range of its field")]
fn a_range_wider_than_its_field_is_a_declaration_error() {
    Value::Whole(256).whole_as::<u8>();
}
