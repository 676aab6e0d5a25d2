//! OpenTafl's rules string, read and written: `dim:7 name:Brandub surf:n
//! ... start:/3t3/.../`, every key with its default (docs/rules/tafl.md).
//!
//! [`RulesString`] is what the text says, checked: a board side from 7 to
//! 19, one defenders' king, squares on the board, values the engine plays.
//! A key, a value or a piece it does not play is refused with an error
//! naming it, never read as something else. Its `Display` writes the
//! canonical text: `dim`, `name`, `atkf`, then every key whose value is not
//! the default in the order of the rules page, then `start` (rank 1
//! first); reading that text gives the same rules.

use super::board::{Side, check_dim, parse_square, square_name};
use super::pieces::{Kind, LETTERS, Piece, PieceSet};
pub use super::rules_values::{
    Berserk, Escape, Jump, KingArmed, KingStrength, Region, RegionRules, Shieldwall,
    ThirdRepetition,
};
use crate::core::ParseError;
use crate::games::board_text::{RowError, read_row, write_row};
use std::fmt;

/// A rules string as read: every key's value, defaults filled in.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RulesString {
    /// The board side, odd, from 7 to 19.
    pub dim: usize,
    /// The label (`name`), if given.
    pub name: Option<String>,
    /// Where the king escapes.
    pub escape: Escape,
    /// Whether the attackers win by encircling every defender (`surf`).
    pub surrounding_fatal: bool,
    /// Whether the attackers move first (`atkf`).
    pub attackers_first: bool,
    /// What a position's third occurrence does.
    pub repetition: ThirdRepetition,
    /// Whether the king captures.
    pub king_armed: KingArmed,
    /// How the king is captured.
    pub king_strength: KingStrength,
    /// The jump of each kind, by [`Kind`] (the taflman's is always none).
    pub jumps: [Jump; 6],
    /// The most squares each piece moves, by piece index; `-1` for no limit.
    pub speeds: [i16; 12],
    /// The squares of each region, by [`Region`], in increasing order.
    pub squares: [Vec<usize>; 4],
    /// The rules of each region, by [`Region`].
    pub regions: [RegionRules; 4],
    /// The pieces the centre is hostile to while empty (`cenhe`).
    pub centre_hostile_empty: PieceSet,
    /// Shieldwall captures.
    pub shieldwall: Shieldwall,
    /// Whether only a piece moving to a flank of a shieldwall takes it (`swf`).
    pub shieldwall_flank: bool,
    /// Whether the defenders win by an edge fort (`efe`).
    pub edge_fort: bool,
    /// Whether Linnaean captures against the occupied throne happen (`linc`).
    pub linnaean: bool,
    /// Berserk moves.
    pub berserk: Berserk,
    /// The start position: the piece on each square, by index (rank 1 first).
    pub start: Vec<Option<Piece>>,
}

/// The keys of a rules string, in the order of the rules page.
const KEYS: &[&str] = &[
    "dim", "name", "esc", "surf", "atkf", "tfr", "ka", "ks", "kj", "nj", "cj", "mj", "gj", "spd",
    "cor", "cen", "afor", "dfor", "corh", "cenh", "aforh", "dforh", "cenhe", "corp", "cenp",
    "aforp", "dforp", "cors", "cens", "afors", "dfors", "corre", "cenre", "aforre", "dforre", "sw",
    "swf", "efe", "linc", "ber", "start", "starti",
];

/// The keys of the jumps, by [`Kind`] (the taflman has none).
const JUMP_KEYS: [Option<&str>; 6] = [
    None,
    Some("cj"),
    Some("nj"),
    Some("kj"),
    Some("mj"),
    Some("gj"),
];

/// The largest speed limit read: any limit past the board's side is no
/// limit in effect, and a bound keeps the number small.
const MAX_SPEED: i16 = 999;

/// Reads one of the letters of an enumerated value.
fn choice<T: Copy>(key: &str, value: &str, choices: &[(&str, T)]) -> Result<T, String> {
    choices
        .iter()
        .find(|(letter, _)| *letter == value)
        .map(|&(_, choice)| choice)
        .ok_or_else(|| {
            let letters: Vec<&str> = choices.iter().map(|(letter, _)| *letter).collect();
            format!("`{key}` takes {}, not `{value}`", letters.join(", "))
        })
}

const YES_NO: &[(&str, bool)] = &[("y", true), ("n", false)];
const ESCAPES: &[(&str, Escape)] = &[("c", Escape::Corner), ("e", Escape::Edge)];
const REPETITIONS: &[(&str, ThirdRepetition)] = &[
    ("d", ThirdRepetition::Draw),
    ("i", ThirdRepetition::Ignored),
    ("w", ThirdRepetition::MoverLoses),
    ("l", ThirdRepetition::MoverWins),
];
const ARMED: &[(&str, KingArmed)] = &[
    ("y", KingArmed::Both),
    ("a", KingArmed::Anvil),
    ("h", KingArmed::Hammer),
    ("n", KingArmed::Neither),
];
const STRENGTHS: &[(&str, KingStrength)] = &[
    ("s", KingStrength::Strong),
    ("w", KingStrength::Weak),
    ("c", KingStrength::CentreStrong),
    ("m", KingStrength::Middleweight),
    ("y", KingStrength::Strong),
    ("n", KingStrength::Weak),
];
const JUMPS: &[(&str, Jump)] = &[
    ("n", Jump::None),
    ("r", Jump::Restricted),
    ("j", Jump::Plain),
    ("c", Jump::Capturing),
];
const SHIELDWALLS: &[(&str, Shieldwall)] = &[
    ("n", Shieldwall::None),
    ("w", Shieldwall::Weak),
    ("s", Shieldwall::Strong),
];
const BERSERKS: &[(&str, Berserk)] = &[
    ("n", Berserk::None),
    ("c", Berserk::CaptureOnly),
    ("m", Berserk::AnyMove),
];

/// The letter a value is written with: the first listed for it.
fn letter_of<T: PartialEq>(choices: &[(&'static str, T)], value: &T) -> &'static str {
    choices
        .iter()
        .find(|(_, choice)| choice == value)
        .map(|(letter, _)| *letter)
        .expect("every value has a letter")
}

impl RulesString {
    /// The rules page's defaults on a `dim` x `dim` board with no start
    /// position yet.
    fn defaults(dim: usize) -> RulesString {
        let last = dim - 1;
        let middle = dim / 2;
        RulesString {
            dim,
            name: None,
            escape: Escape::Corner,
            surrounding_fatal: true,
            attackers_first: true,
            repetition: ThirdRepetition::Draw,
            king_armed: KingArmed::Both,
            king_strength: KingStrength::Strong,
            jumps: [
                Jump::None,
                Jump::Plain,
                Jump::Capturing,
                Jump::None,
                Jump::None,
                Jump::None,
            ],
            speeds: [-1; 12],
            squares: [
                vec![0, last, last * dim, last * dim + last],
                vec![middle * dim + middle],
                Vec::new(),
                Vec::new(),
            ],
            regions: Region::ALL.map(RegionRules::default_of),
            centre_hostile_empty: PieceSet::ALL,
            shieldwall: Shieldwall::None,
            shieldwall_flank: true,
            edge_fort: false,
            linnaean: false,
            berserk: Berserk::None,
            start: vec![None; dim * dim],
        }
    }

    /// The piece on `index` at the start.
    pub fn start_piece(&self, index: usize) -> Option<Piece> {
        self.start[index]
    }

    /// The square of the defenders' king at the start.
    pub fn king_start(&self) -> usize {
        self.start
            .iter()
            .position(|piece| {
                *piece
                    == Some(Piece {
                        side: Side::Defenders,
                        kind: Kind::King,
                    })
            })
            .expect("a read rules string has a king")
    }

    /// The speed limit of `piece`, if it has one.
    pub fn speed(&self, piece: Piece) -> Option<usize> {
        usize::try_from(self.speeds[piece.index()]).ok()
    }

    /// The jump of `kind`.
    pub fn jump(&self, kind: Kind) -> Jump {
        self.jumps[kind as usize]
    }
}

impl std::str::FromStr for RulesString {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<RulesString, ParseError> {
        parse(text).map_err(|problem| ParseError::new("rules string", text, problem))
    }
}

/// Reads a rules string, or says what is wrong with it.
fn parse(text: &str) -> Result<RulesString, String> {
    let mut entries: Vec<(&str, &str)> = Vec::new();
    for entry in text.split_whitespace() {
        let (key, value) = entry
            .split_once(':')
            .ok_or_else(|| format!("`{entry}` is not of the form key:value"))?;
        if !KEYS.contains(&key) {
            return Err(format!(
                "the key `{key}` is not supported (keys: {})",
                KEYS.join(", ")
            ));
        }
        if entries.iter().any(|&(seen, _)| seen == key) {
            return Err(format!("`{key}` is given twice"));
        }
        entries.push((key, value));
    }
    let dim_text = entries
        .iter()
        .find(|&&(key, _)| key == "dim")
        .map(|&(_, value)| value)
        .ok_or("no board side (`dim:N`)")?;
    let dim: usize = dim_text
        .parse()
        .ok()
        .filter(|_| dim_text.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| format!("`dim` takes a number, not `{dim_text}`"))?;
    check_dim(dim)?;
    let mut rules = RulesString::defaults(dim);
    let mut start_given = false;
    for &(key, value) in &entries {
        read_entry(&mut rules, key, value, &mut start_given)?;
    }
    if !start_given {
        return Err("no start position (`start:` or `starti:`)".into());
    }
    check(&rules)?;
    Ok(rules)
}

/// Reads one `key:value` entry into `rules`.
fn read_entry(
    rules: &mut RulesString,
    key: &str,
    value: &str,
    start_given: &mut bool,
) -> Result<(), String> {
    let dim = rules.dim;
    match key {
        "dim" => {}
        "name" => rules.name = Some(value.to_string()),
        "esc" => rules.escape = choice(key, value, ESCAPES)?,
        "surf" => rules.surrounding_fatal = choice(key, value, YES_NO)?,
        "atkf" => rules.attackers_first = choice(key, value, YES_NO)?,
        "tfr" => rules.repetition = choice(key, value, REPETITIONS)?,
        "ka" => rules.king_armed = choice(key, value, ARMED)?,
        "ks" => rules.king_strength = choice(key, value, STRENGTHS)?,
        "swf" => rules.shieldwall_flank = choice(key, value, YES_NO)?,
        "efe" => rules.edge_fort = choice(key, value, YES_NO)?,
        "linc" => rules.linnaean = choice(key, value, YES_NO)?,
        "sw" => rules.shieldwall = choice(key, value, SHIELDWALLS)?,
        "ber" => rules.berserk = choice(key, value, BERSERKS)?,
        "spd" => rules.speeds = read_speeds(value)?,
        "cenhe" => rules.centre_hostile_empty = read_pieces(key, value)?,
        "start" | "starti" => {
            if *start_given {
                return Err("give one of `start` and `starti`, not both".into());
            }
            *start_given = true;
            rules.start = read_position(dim, value, key == "starti")?;
        }
        _ => {
            if let Some(kind) = JUMP_KEYS.iter().position(|&jump| jump == Some(key)) {
                rules.jumps[kind] = choice(key, value, JUMPS)?;
                return Ok(());
            }
            let (region, suffix) = Region::ALL
                .iter()
                .rev()
                .find_map(|&region| key.strip_prefix(region.key()).map(|rest| (region, rest)))
                .ok_or_else(|| format!("the key `{key}` is not supported"))?;
            let region_rules = &mut rules.regions[region as usize];
            match suffix {
                "" => rules.squares[region as usize] = read_squares(dim, key, value)?,
                "h" => region_rules.hostile = read_pieces(key, value)?,
                "p" => region_rules.pass = read_pieces(key, value)?,
                "s" => region_rules.stop = read_pieces(key, value)?,
                "re" => region_rules.reenter = read_pieces(key, value)?,
                _ => return Err(format!("the key `{key}` is not supported")),
            }
        }
    }
    Ok(())
}

/// Reads a list of piece letters.
fn read_pieces(key: &str, value: &str) -> Result<PieceSet, String> {
    PieceSet::parse(value).map_err(|letter| {
        format!("`{key}` lists `{letter}`, which is not a piece letter (letters: {LETTERS})")
    })
}

/// Reads a list of squares `a1,b2,` (a trailing comma, or none; empty for
/// no square).
fn read_squares(dim: usize, key: &str, value: &str) -> Result<Vec<usize>, String> {
    let mut squares = Vec::new();
    for name in value.split(',').filter(|name| !name.is_empty()) {
        let square = parse_square(dim, name)
            .map_err(|error| format!("`{key}` lists `{name}`: {}", error.problem()))?;
        squares.push(square);
    }
    squares.sort_unstable();
    squares.dedup();
    Ok(squares)
}

/// Reads the speed limits: one for all, one per side, or one per piece
/// in the orders `tcnkmgTCNKMG`, `tcnkmTCNKM` or `tcnkTCNK`.
fn read_speeds(value: &str) -> Result<[i16; 12], String> {
    let numbers: Vec<i16> = value
        .strip_suffix(',')
        .unwrap_or(value)
        .split(',')
        .map(|number| {
            number
                .parse::<i16>()
                .ok()
                .filter(|&speed| speed == -1 || (1..=MAX_SPEED).contains(&speed))
                .ok_or_else(|| {
                    format!(
                        "`spd` takes -1 (no limit) or a number of squares from 1 to {MAX_SPEED}, not `{number}`"
                    )
                })
        })
        .collect::<Result<_, _>>()?;
    let kinds_given = match numbers.len() {
        1 => return Ok([numbers[0]; 12]),
        2 => return Ok(std::array::from_fn(|index| numbers[index / 6])),
        12 => 6,
        10 => 5,
        8 => 4,
        count => {
            return Err(format!(
                "`spd` takes 1, 2, 8, 10 or 12 numbers, not {count}"
            ));
        }
    };
    let mut speeds = [-1; 12];
    for side in 0..2 {
        for kind in 0..kinds_given {
            speeds[side * 6 + kind] = numbers[side * kinds_given + kind];
        }
    }
    Ok(speeds)
}

/// Reads a position record: ranks between slashes, rank 1 first (or the
/// top rank first when `top_first`), digit runs for empty squares; its
/// board side is its number of ranks. With the side and the piece on
/// each square.
pub(crate) fn read_record(
    value: &str,
    top_first: bool,
) -> Result<(usize, Vec<Option<Piece>>), String> {
    let ranks: Vec<&str> = value.trim_matches('/').split('/').collect();
    let dim = ranks.len();
    check_dim(dim).map_err(|problem| format!("{dim} ranks: {problem}"))?;
    let mut cells = vec![None; dim * dim];
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank = if top_first { dim - 1 - row } else { row };
        let pieces = read_row(rank_text, dim).map_err(|error| match error {
            RowError::ZeroRun => format!("rank {}: a run of 0 empty squares", rank + 1),
            RowError::Length(found) => format!(
                "rank {} has {} squares instead of {dim}",
                rank + 1,
                if found > dim {
                    format!("more than {dim}")
                } else {
                    found.to_string()
                }
            ),
        })?;
        for (file, letter) in pieces {
            let piece = Piece::from_letter(letter)
                .ok_or_else(|| format!("`{letter}` is not a piece letter (letters: {LETTERS})"))?;
            cells[rank * dim + file] = Some(piece);
        }
    }
    Ok((dim, cells))
}

/// Reads the start position of a `dim` x `dim` board.
fn read_position(dim: usize, value: &str, top_first: bool) -> Result<Vec<Option<Piece>>, String> {
    let (ranks, cells) = read_record(value, top_first)
        .map_err(|problem| format!("the start position: {problem}"))?;
    if ranks != dim {
        return Err(format!(
            "the start position has {ranks} ranks, but the board has {dim}"
        ));
    }
    Ok(cells)
}

/// What read rules must also be: one defenders' king and no attackers'
/// king (the engine plays neither several kings nor a king for the
/// attackers), and no square in two regions.
fn check(rules: &RulesString) -> Result<(), String> {
    let kings = |side| {
        rules
            .start
            .iter()
            .filter(|piece| {
                **piece
                    == Some(Piece {
                        side,
                        kind: Kind::King,
                    })
            })
            .count()
    };
    if kings(Side::Attackers) > 0 {
        return Err("an attackers' king (`k`) is not supported".into());
    }
    match kings(Side::Defenders) {
        1 => {}
        0 => return Err("the start position has no king (`K`)".into()),
        count => {
            return Err(format!(
                "the start position has {count} kings; one is supported"
            ));
        }
    }
    for (index, &first) in Region::ALL.iter().enumerate() {
        for &second in &Region::ALL[index + 1..] {
            if let Some(square) = rules.squares[first as usize]
                .iter()
                .find(|square| rules.squares[second as usize].contains(square))
            {
                return Err(format!(
                    "{} is listed in both `{}` and `{}`; a square of two regions is not supported",
                    square_name(rules.dim, *square),
                    first.key(),
                    second.key()
                ));
            }
        }
    }
    Ok(())
}

impl fmt::Display for RulesString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let defaults = RulesString::defaults(self.dim);
        write!(f, "dim:{}", self.dim)?;
        if let Some(name) = &self.name {
            write!(f, " name:{name}")?;
        }
        write!(f, " atkf:{}", letter_of(YES_NO, &self.attackers_first))?;
        let mut entry = |key: &str, value: String, default: String| {
            if value == default {
                Ok(())
            } else {
                write!(f, " {key}:{value}")
            }
        };
        entry(
            "esc",
            letter_of(ESCAPES, &self.escape).into(),
            letter_of(ESCAPES, &defaults.escape).into(),
        )?;
        entry(
            "surf",
            letter_of(YES_NO, &self.surrounding_fatal).into(),
            "y".into(),
        )?;
        entry(
            "tfr",
            letter_of(REPETITIONS, &self.repetition).into(),
            "d".into(),
        )?;
        entry("ka", letter_of(ARMED, &self.king_armed).into(), "y".into())?;
        entry(
            "ks",
            letter_of(STRENGTHS, &self.king_strength).into(),
            "s".into(),
        )?;
        for kind in [
            Kind::King,
            Kind::Knight,
            Kind::Commander,
            Kind::Mercenary,
            Kind::Guard,
        ] {
            let key = JUMP_KEYS[kind as usize].expect("the kind has a jump key");
            entry(
                key,
                letter_of(JUMPS, &self.jumps[kind as usize]).into(),
                letter_of(JUMPS, &defaults.jumps[kind as usize]).into(),
            )?;
        }
        entry("spd", speeds_text(&self.speeds), "-1".into())?;
        let squares_text = |squares: &[usize]| -> String {
            squares
                .iter()
                .map(|&square| square_name(self.dim, square) + ",")
                .collect()
        };
        for region in Region::ALL {
            entry(
                region.key(),
                squares_text(&self.squares[region as usize]),
                squares_text(&defaults.squares[region as usize]),
            )?;
        }
        type Field = fn(&RegionRules) -> PieceSet;
        let fields: [(&str, Field); 4] = [
            ("h", |rules| rules.hostile),
            ("p", |rules| rules.pass),
            ("s", |rules| rules.stop),
            ("re", |rules| rules.reenter),
        ];
        for (suffix, field) in fields {
            for region in Region::ALL {
                let key = format!("{}{suffix}", region.key());
                entry(
                    &key,
                    field(&self.regions[region as usize]).to_string(),
                    field(&defaults.regions[region as usize]).to_string(),
                )?;
            }
            if suffix == "h" {
                entry(
                    "cenhe",
                    self.centre_hostile_empty.to_string(),
                    defaults.centre_hostile_empty.to_string(),
                )?;
            }
        }
        entry(
            "sw",
            letter_of(SHIELDWALLS, &self.shieldwall).into(),
            "n".into(),
        )?;
        entry(
            "swf",
            letter_of(YES_NO, &self.shieldwall_flank).into(),
            "y".into(),
        )?;
        entry("efe", letter_of(YES_NO, &self.edge_fort).into(), "n".into())?;
        entry("linc", letter_of(YES_NO, &self.linnaean).into(), "n".into())?;
        entry("ber", letter_of(BERSERKS, &self.berserk).into(), "n".into())?;
        write!(
            f,
            " start:{}",
            position_record(self.dim, |index| self.start[index])
        )
    }
}

/// The speed limits as written: one number when all agree, two when each
/// side's agree, else twelve.
fn speeds_text(speeds: &[i16; 12]) -> String {
    if speeds.iter().all(|&speed| speed == speeds[0]) {
        speeds[0].to_string()
    } else if speeds[..6].iter().all(|&s| s == speeds[0])
        && speeds[6..].iter().all(|&s| s == speeds[6])
    {
        format!("{},{}", speeds[0], speeds[6])
    } else {
        speeds.iter().map(|speed| format!("{speed},")).collect()
    }
}

/// A position record, rank 1 first, of the piece on each square.
pub fn position_record(dim: usize, piece_at: impl Fn(usize) -> Option<Piece>) -> String {
    let mut text = String::from("/");
    for rank in 0..dim {
        // Writing to a String cannot fail.
        let _ = write_row(
            &mut text,
            (0..dim).map(|file| piece_at(rank * dim + file).map(Piece::letter)),
        );
        text.push('/');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const BRANDUB: &str = "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

    fn problem(text: &str) -> String {
        text.parse::<RulesString>().unwrap_err().to_string()
    }

    #[test]
    fn a_rules_string_reads_its_keys_and_writes_them_back() {
        let rules: RulesString = BRANDUB.parse().unwrap();
        assert_eq!(rules.dim, 7);
        assert!(!rules.surrounding_fatal);
        assert_eq!(rules.king_strength, KingStrength::Weak);
        assert_eq!(
            rules.regions[Region::Centre as usize].hostile,
            PieceSet::NONE
        );
        assert_eq!(rules.start.iter().flatten().count(), 13);
        assert_eq!(square_name(7, rules.king_start()), "d4");
        let text = rules.to_string();
        assert_eq!(
            text,
            "dim:7 name:Brandub atkf:y surf:n ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
        );
        assert_eq!(text.parse::<RulesString>().unwrap(), rules);
    }

    #[test]
    fn the_start_reads_from_rank_1_and_starti_from_the_top() {
        let bottom: RulesString = "dim:7 start:/t6/7/7/3K3/7/7/7/".parse().unwrap();
        assert_eq!(bottom.start[0].map(Piece::letter), Some('t'));
        let top: RulesString = "dim:7 starti:/t6/7/7/3K3/7/7/7/".parse().unwrap();
        assert_eq!(top.start[42].map(Piece::letter), Some('t'));
        assert!(top.to_string().ends_with("start:/7/7/7/3K3/7/7/t6/"));
    }

    #[test]
    fn speeds_read_in_every_documented_form() {
        let speeds = |text: &str| read_speeds(text).unwrap();
        assert_eq!(speeds("-1"), [-1; 12]);
        assert_eq!(speeds("3,-1")[5], 3);
        assert_eq!(speeds("3,-1")[6], -1);
        let magpie = speeds("-1,-1,-1,-1,-1,-1,-1,-1,-1,1,-1,-1,");
        assert_eq!(magpie[Piece::from_letter('K').unwrap().index()], 1);
        let ten = speeds("1,2,3,4,5,6,7,8,9,10");
        assert_eq!((ten[4], ten[5], ten[6], ten[11]), (5, -1, 6, -1));
        let eight = speeds("1,2,3,4,5,6,7,8");
        assert_eq!((eight[3], eight[4], eight[6], eight[9]), (4, -1, 5, 8));
        for text in ["0", "-2", "1,2,3", "x", "1000", ""] {
            assert!(read_speeds(text).is_err(), "{text}");
        }
        for speeds in [[-1; 12], [2; 12], std::array::from_fn(|i| i as i16 + 1)] {
            assert_eq!(read_speeds(&speeds_text(&speeds)).unwrap(), speeds);
        }
    }

    #[test]
    fn unsupported_and_malformed_strings_name_the_problem() {
        let start = "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
        for (text, expected) in [
            (
                format!("dim:7 {start} zz:y"),
                "the key `zz` is not supported",
            ),
            (format!("dim:7 {start} ks:q"), "`ks` takes"),
            (format!("dim:8 {start}"), "odd"),
            (format!("dim:21 {start}"), "odd, from 7 to 19"),
            (
                format!("dim:99999999999999999999 {start}"),
                "`dim` takes a number",
            ),
            ("dim:7 ks:w".to_string(), "no start position"),
            (start.to_string(), "no board side"),
            (format!("dim:7 {start} surf:y surf:n"), "given twice"),
            (format!("dim:7 {start} cor:a1,h9,"), "`cor` lists `h9`"),
            (format!("dim:7 {start} cenh:tx"), "`x`"),
            (
                "dim:7 start:/3t3/3t3/3T3/ttTkTtt/3T3/3t3/3t3/".into(),
                "attackers' king",
            ),
            (
                "dim:7 start:/3t3/3t3/3T3/ttTTTtt/3T3/3t3/3t3/".into(),
                "no king",
            ),
            (
                "dim:7 start:/3t3/3t3/3K3/ttTKTtt/3T3/3t3/3t3/".into(),
                "2 kings",
            ),
            (
                "dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/".into(),
                "6 ranks",
            ),
            (
                "dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3tx2/".into(),
                "`x`",
            ),
            (
                format!("dim:7 {start} cor:d4,"),
                "listed in both `cor` and `cen`",
            ),
            (format!("dim:7 {start} nonsense"), "key:value"),
            (
                format!("dim:7 {start} starti:/7/7/7/3K3/7/7/7/"),
                "not both",
            ),
        ] {
            let error = problem(&text);
            assert!(error.contains(expected), "{text}: {error}");
        }
    }
}
