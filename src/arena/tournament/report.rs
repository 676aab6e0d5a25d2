//! Tournament reports: a table for the terminal, a Markdown page and an SVG
//! chart of the ratings, and the files a run directory keeps of them.

use super::labels::{CHAR_WIDTH, ChartNames};
use super::run::TournamentError;
use super::sprt::SprtResult;
use super::store::io_error;
use super::summary::{
    LengthStats, OverallSummary, PairingSummary, RATED_BY_PAIRS, Record, TournamentSummary,
};
use crate::arena::winrate::p_value_text;
use crate::core::{escape_control, escape_control_lines};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

fn length_text(length: &Option<LengthStats>) -> String {
    match length {
        Some(length) => format!("{:.1} ({}-{})", length.average, length.min, length.max),
        None => "-".to_string(),
    }
}

pub(super) fn reasons_text(reasons: &BTreeMap<String, usize>) -> String {
    let mut sorted: Vec<(&String, &usize)> = reasons.iter().collect();
    sorted.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    sorted
        .iter()
        .map(|(reason, count)| format!("{reason} {count}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn record_text(record: &Record) -> String {
    format!("+{} ={} -{}", record.wins, record.draws, record.losses)
}

/// The agents in order of rating, best first (ties keep the given order).
fn ranking(summary: &TournamentSummary) -> Vec<usize> {
    let mut order: Vec<usize> = (0..summary.agents.len()).collect();
    order.sort_by(|&a, &b| summary.agents[b].elo.total_cmp(&summary.agents[a].elo));
    order
}

/// A table rendered either padded for a terminal or as Markdown.
struct Table {
    headers: Vec<String>,
    /// Whether each column holds numbers (right-aligned).
    numeric: Vec<bool>,
    rows: Vec<Vec<String>>,
}

impl Table {
    fn new(columns: &[(&str, bool)]) -> Table {
        Table {
            headers: columns.iter().map(|(name, _)| name.to_string()).collect(),
            numeric: columns.iter().map(|&(_, numeric)| numeric).collect(),
            rows: Vec::new(),
        }
    }

    fn add_column(&mut self, name: String, numeric: bool) {
        self.headers.push(name);
        self.numeric.push(numeric);
    }

    fn text(&self) -> String {
        let widths: Vec<usize> = (0..self.headers.len())
            .map(|c| {
                self.rows
                    .iter()
                    .map(|row| row[c].chars().count())
                    .chain([self.headers[c].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |cells: &[String]| {
            let padded: Vec<String> = cells
                .iter()
                .enumerate()
                .map(|(c, cell)| {
                    if self.numeric[c] {
                        format!("{cell:>width$}", width = widths[c])
                    } else {
                        format!("{cell:<width$}", width = widths[c])
                    }
                })
                .collect();
            padded.join("  ").trim_end().to_string() + "\n"
        };
        let mut out = line(&self.headers);
        for row in &self.rows {
            out.push_str(&line(row));
        }
        out
    }

    fn markdown(&self) -> String {
        let mut out = format!("| {} |\n|", self.headers.join(" | "));
        for &numeric in &self.numeric {
            out.push_str(if numeric { " ---: |" } else { " --- |" });
        }
        out.push('\n');
        for row in &self.rows {
            out.push_str(&format!("| {} |\n", row.join(" | ")));
        }
        out
    }
}

/// The ranking table: one row per agent, best rating first. The end reasons
/// per agent are left out of the terminal's table to keep it narrow.
fn agents_table(
    summary: &TournamentSummary,
    code: fn(&str) -> String,
    with_reasons: bool,
) -> Table {
    let sides = &summary.overall.sides;
    // Beside a match's test, whose Elo counts each pair as one sample, the
    // fit's figures say what they are.
    let (elo, interval) = match summary.match_result {
        Some(_) => ("rating (fit)", "fit's 95% interval"),
        None => ("Elo", "95% interval"),
    };
    let mut table = Table::new(&[
        ("rank", true),
        ("agent", false),
        ("games", true),
        ("W", true),
        ("D", true),
        ("L", true),
        ("score", true),
        (elo, true),
        (interval, false),
    ]);
    for side in sides {
        table.add_column(format!("as {side}"), false);
    }
    table.add_column("length avg (min-max)".into(), false);
    if with_reasons {
        table.add_column("game ends".into(), false);
    }
    for (rank, &index) in ranking(summary).iter().enumerate() {
        let agent = &summary.agents[index];
        let mut row = vec![
            (rank + 1).to_string(),
            code(&agent.name),
            agent.games.to_string(),
            agent.wins.to_string(),
            agent.draws.to_string(),
            agent.losses.to_string(),
            format!("{:.1}%", 100.0 * agent.score),
            format!("{:+.0}", agent.elo),
            format!("[{:+.0}, {:+.0}]", agent.elo_low, agent.elo_high),
        ];
        for side in sides {
            row.push(
                agent
                    .by_side
                    .iter()
                    .find(|entry| &entry.side == side)
                    .map_or("-".to_string(), |entry| record_text(&entry.record)),
            );
        }
        row.push(length_text(&agent.length));
        if with_reasons {
            row.push(reasons_text(&agent.reasons));
        }
        table.rows.push(row);
    }
    table
}

/// The pairings table, from the first agent's point of view; scored games
/// add the margin of each colour-swapped pair and their sum.
fn pairings_table(summary: &TournamentSummary, code: fn(&str) -> String) -> Table {
    let mut table = Table::new(&[
        ("agent", false),
        ("opponent", false),
        ("games", true),
        ("W", true),
        ("D", true),
        ("L", true),
        ("score", true),
        ("Elo by pairs (95%)", false),
        ("length avg (min-max)", false),
        ("game ends", false),
    ]);
    let scored = summary
        .pairings
        .iter()
        .any(|pairing| pairing.pair_margins.is_some());
    if scored {
        table.add_column("pairs by summed margin".into(), false);
        table.add_column("margin per pair of battles".into(), false);
        table.add_column("summed margin".into(), true);
    }
    for pairing in &summary.pairings {
        let mut row = vec![
            code(&pairing.agents[0]),
            code(&pairing.agents[1]),
            pairing.games.to_string(),
            pairing.wins.to_string(),
            pairing.draws.to_string(),
            pairing.losses.to_string(),
            format!("{:.1}%", 100.0 * pairing.score),
            pair_elo_text(pairing),
            length_text(&pairing.length),
            reasons_text(&pairing.reasons),
        ];
        if let Some(margins) = &pairing.pair_margins {
            row.push(
                pairing
                    .pairs_by_margin
                    .map_or("-".to_string(), |[lost, drawn, won]| {
                        format!("+{won} ={drawn} -{lost}")
                    }),
            );
            let listed: Vec<String> = margins.iter().map(|margin| format!("{margin:+}")).collect();
            row.push(listed.join(" "));
            row.push(format!("{:+}", margins.iter().sum::<f64>()));
        }
        table.rows.push(row);
    }
    table
}

/// What each agent's moves cost, for the agents whose games record it;
/// `None` when no game does.
fn search_table(summary: &TournamentSummary, code: fn(&str) -> String) -> Option<Table> {
    let mut table = Table::new(&[
        ("agent", false),
        ("moves", true),
        ("time per move", true),
        ("longest", true),
        ("depth", true),
        ("iterations", true),
        ("nodes", true),
    ]);
    let clocked = summary.agents.iter().any(|agent| {
        agent
            .search
            .as_ref()
            .is_some_and(|search| search.clock_used.is_some())
    });
    if clocked {
        table.add_column("clock used".into(), true);
    }
    let mean = |value: Option<f64>, decimals: usize| {
        value.map_or("-".to_string(), |value| format!("{value:.decimals$}"))
    };
    for &index in &ranking(summary) {
        let agent = &summary.agents[index];
        let Some(search) = &agent.search else {
            continue;
        };
        let mut row = vec![
            code(&agent.name),
            search.decisions.to_string(),
            seconds_text(search.time),
            seconds_text(search.max_time),
            mean(search.depth, 1),
            mean(search.iterations, 0),
            mean(search.nodes, 0),
        ];
        if clocked {
            row.push(
                search
                    .clock_used
                    .map_or("-".to_string(), |used| format!("{:.0}%", 100.0 * used)),
            );
        }
        table.rows.push(row);
    }
    (!table.rows.is_empty()).then_some(table)
}

/// A duration in the unit that suits it.
pub(super) fn seconds_text(seconds: f64) -> String {
    if seconds >= 1.0 {
        format!("{seconds:.2} s")
    } else if seconds >= 1e-3 {
        format!("{:.1} ms", 1e3 * seconds)
    } else {
        format!("{:.0} µs", 1e6 * seconds)
    }
}

/// A pairing's Elo from its colour-swapped pairs with the pentanomial
/// interval, `-` before a pair was finished.
fn pair_elo_text(pairing: &PairingSummary) -> String {
    if pairing.pentanomial.iter().sum::<u64>() == 0 {
        return "-".to_string();
    }
    format!(
        "{:+.0} [{:+.0}, {:+.0}]",
        pairing.pair_elo, pairing.pair_elo_low, pairing.pair_elo_high
    )
}

/// What kind of run the summary is of: a match, a gauntlet or a round-robin
/// tournament.
fn run_kind(summary: &TournamentSummary) -> &'static str {
    if summary.match_result.is_some() {
        "match"
    } else if summary.gauntlet {
        "gauntlet"
    } else {
        "tournament"
    }
}

/// Who played whom, as a sentence for a gauntlet (empty otherwise).
fn gauntlet_text(summary: &TournamentSummary) -> String {
    match summary.agents.split_first() {
        Some((challenger, [baseline])) if summary.gauntlet => format!(
            "Gauntlet: {} played its one baseline, {}. ",
            challenger.name, baseline.name
        ),
        Some((challenger, baselines)) if summary.gauntlet => format!(
            "Gauntlet: {} played each of {} baselines, which did not play each other. ",
            challenger.name,
            baselines.len()
        ),
        _ => String::new(),
    }
}

/// A match's sequential test: its verdict, LLR, pairs and Elo.
fn sprt_lines(result: &SprtResult) -> Vec<String> {
    vec![
        format!(
            "{}: H0 Elo {:+}, H1 Elo {:+}, alpha {}, beta {}; {}",
            result.verdict(),
            result.sprt.elo0,
            result.sprt.elo1,
            result.sprt.alpha,
            result.sprt.beta,
            result.pair_scoring.describe()
        ),
        format!(
            "LLR {:.2} (bounds {:.2}, {:.2}) after {} games, {} pairs counted ({} repeated, not counted)",
            result.llr,
            result.llr_lower,
            result.llr_upper,
            result.games,
            result.pairs,
            result.repeated_pairs
        ),
        format!(
            "{}; Elo of the tested agent {:+.1} [{:+.1}, {:+.1}] (95%, each pair one sample; an infinite end is unbounded)",
            pair_counts_text(&result.pentanomial, result.pairs_by_margin.as_ref()),
            result.elo,
            result.elo_low,
            result.elo_high
        ),
    ]
}

/// The counts of a match's or a pairing's pairs: by their games' results,
/// and for a game scored by margin first by summed margin, which the test
/// and the Elo read.
pub(super) fn pair_counts_text(pentanomial: &[u64; 5], by_margin: Option<&[u64; 3]>) -> String {
    let by_results = format!("pairs scoring 0/0.5/1/1.5/2: {pentanomial:?}");
    match by_margin {
        Some([lost, drawn, won]) => format!(
            "pairs by summed margin won {won}, drawn {drawn}, lost {lost} (by their games' results, {by_results})"
        ),
        None => by_results,
    }
}

/// What the ratings table of a match measures, beside the test's Elo.
const MATCH_RATINGS_NOTE: &str = "The rating and its interval in the table below are the Bradley-Terry fit \
of the ratings, which counts every game (every pair, for a game scored by margin) as independent and adds \
one virtual draw; the Elo of the sequential test above counts each colour-swapped pair as one sample.";

/// How the ratings and intervals are computed, as the Markdown report's
/// closing section.
const RATINGS_NOTE: &str = "\n## How the ratings are computed\n\n\
Ratings are the maximum-likelihood fit of the Bradley-Terry model: agent `a` scores against `b` \
with probability 1 / (1 + 10^((r_b - r_a) / 400)), a draw counting half a win for each. \
The anchor's rating is held at 0 and every other rating is measured against it. \
One virtual draw is added to every pair of agents that met, so that an agent that won every game \
still gets a finite rating: 12 wins in 12 games rate +559 (12.5 points of 13) rather than infinity. \
The virtual draw pulls every rating a little toward its opponents', by one game's worth of evidence per pairing. \
The ratings' 95% intervals come from the curvature of the likelihood (the observed Fisher information) \
and treat every counted game (or pair, for scored games) as independent. \
The pairings' \"Elo by pairs\" column does not: each colour-swapped pair's total score \
(0, 0.5, 1, 1.5 or 2 points; for a game scored by margin, 1, 1/2 or 0 as the pair is won, \
drawn or lost by the margin summed over its two games) is one sample, and the interval is the mean score \
plus or minus 1.96 standard errors of the mean of the pairs, converted to Elo; \
an end past a score of 0 or 1 is unbounded. When every pair scored the same the variance is 0, \
and is then taken from the counts with one pseudo-pair spread over the outcomes. \
See docs/ratings.md.\n";

/// The lines about all games together.
fn overall_lines(summary: &TournamentSummary) -> Vec<String> {
    let sides = &summary.overall.sides;
    let overall = &summary.overall;
    let mut lines = vec![
        format!("openings: {}", summary.openings),
        format!(
            "{} games, {} drawn; {} (the first player) won {}, {} won {}; first-player score {:.1}%",
            overall.games,
            overall.draws,
            sides.first().map_or("first player", String::as_str),
            overall.first_player_wins,
            sides.get(1).map_or("second player", String::as_str),
            overall.second_player_wins,
            100.0 * overall.first_player_score
        ),
        format!("length in plies: {}", length_text(&overall.length)),
        format!("game ends: {}", reasons_text(&overall.reasons)),
    ];
    if let Some(line) = side_advantage_text(overall, summary.rated_by == RATED_BY_PAIRS) {
        lines.push(line);
    }
    let forfeits: Vec<String> = summary
        .agents
        .iter()
        .filter(|agent| agent.forfeits > 0)
        .map(|agent| format!("{} {}", agent.name, agent.forfeits))
        .collect();
    if !forfeits.is_empty() {
        lines.push(format!(
            "games lost by forfeit (the agent failed; each reason is in games.jsonl): {}",
            forfeits.join("; ")
        ));
    }
    let repeating: Vec<String> = summary
        .pairings
        .iter()
        .filter(|pairing| pairing.distinct_games < pairing.games)
        .map(|pairing| {
            format!(
                "{} vs {} {} of {}",
                pairing.agents[0], pairing.agents[1], pairing.distinct_games, pairing.games
            )
        })
        .collect();
    if !repeating.is_empty() {
        lines.push(format!(
            "warning: repeated games, which are no new evidence (distinct games of all): {}",
            repeating.join("; ")
        ));
    }
    lines
}

/// Whether the sign test says that one side had the better of these
/// agents (p below 0.05), in words; `None` when it does not.
pub(super) fn side_advantage_text(overall: &OverallSummary, scored: bool) -> Option<String> {
    if overall.side_advantage_p >= 0.05 {
        return None;
    }
    let decisive = overall.first_player_wins + overall.second_player_wins;
    let (side, won) = if overall.first_player_wins > overall.second_player_wins {
        (overall.sides.first(), overall.first_player_wins)
    } else {
        (overall.sides.get(1), overall.second_player_wins)
    };
    let reading = if scored {
        "single games tell the sides apart more than the agents, so the pair statistics and the ratings read each colour-swapped pair by its summed margin"
    } else {
        "each agent plays each side once in a colour-swapped pair, so the pair statistics compare the agents, not the sides"
    };
    Some(format!(
        "the sides are unequal between these agents: {} won {won} of {decisive} decisive games (sign test p = {}); {reading}",
        side.map_or("one side", String::as_str),
        p_value_text(overall.side_advantage_p)
    ))
}

/// A name in a table of the terminal's report: escaped here, before the
/// columns are measured, so that the table stays aligned.
fn plain(text: &str) -> String {
    escape_control(text)
}

/// A name in a table of the Markdown report.
fn backticked(text: &str) -> String {
    format!("`{}`", escape_control(text))
}

/// How repeated pairs enter the ratings, as a sentence.
fn repeats_text(summary: &TournamentSummary) -> String {
    match summary.repeated_pairs {
        0 => "Each colour-swapped pair counts once in the ratings; none repeated an earlier pair's games."
            .to_string(),
        1 => "Each distinct colour-swapped pair counts once in the ratings: 1 pair that repeated an earlier pair's games (same seats, opening and moves) is left out."
            .to_string(),
        repeated => format!(
            "Each distinct colour-swapped pair counts once in the ratings: {repeated} pairs that repeated an earlier pair's games (same seats, opening and moves) are left out."
        ),
    }
}

/// A plain-text report for the terminal.
pub fn text_report(summary: &TournamentSummary) -> String {
    let mut out = format!(
        "{} {}: {} agents, {} of {} games played, seed {}, Elo of {} anchored on {} = 0\n{}{}\n\n",
        summary.game,
        run_kind(summary),
        summary.agents.len(),
        summary.games_played,
        summary.games_scheduled,
        summary.seed,
        summary.rated_by,
        summary.anchor,
        gauntlet_text(summary),
        repeats_text(summary)
    );
    if let Some(result) = &summary.match_result {
        for line in sprt_lines(result) {
            out.push_str(&line);
            out.push('\n');
        }
        out.push_str(MATCH_RATINGS_NOTE);
        out.push_str("\n\n");
    }
    out.push_str(&agents_table(summary, plain, false).text());
    out.push_str("\npairings (first agent's view):\n");
    out.push_str(&pairings_table(summary, plain).text());
    if let Some(table) = search_table(summary, plain) {
        out.push_str("\nwhat each move cost (means per move):\n");
        out.push_str(&table.text());
    }
    out.push('\n');
    for line in overall_lines(summary) {
        out.push_str(&line);
        out.push('\n');
    }
    // Agents' names are their specs, which may hold terminal escape codes.
    escape_control_lines(&out)
}

/// A Markdown report with the same content.
pub fn markdown_report(summary: &TournamentSummary) -> String {
    let mut out = format!("# {} {}\n\n", summary.game, run_kind(summary));
    if let Some(result) = &summary.match_result {
        out.push_str("## Sequential test\n\n");
        for line in sprt_lines(result) {
            out.push_str(&format!("- {line}\n"));
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "{}{} agents, {} of {} games played ({} per pairing, in colour-swapped pairs), seed {}, rules `{}`. \
         Elo from a Bradley-Terry fit to the results of {}, anchored on `{}` = 0, with 95% intervals. {}\n\n",
        gauntlet_text(summary),
        summary.agents.len(),
        summary.games_played,
        summary.games_scheduled,
        summary.games_per_pair,
        summary.seed,
        if summary.rules.is_empty() { "default" } else { &summary.rules },
        summary.rated_by,
        summary.anchor,
        repeats_text(summary)
    ));
    if summary.match_result.is_some() {
        out.push_str(MATCH_RATINGS_NOTE);
        out.push_str("\n\n");
    }
    out.push_str(&agents_table(summary, backticked, true).markdown());
    out.push_str("\n## Pairings\n\n");
    out.push_str(&pairings_table(summary, backticked).markdown());
    if let Some(table) = search_table(summary, backticked) {
        out.push_str(
            "\n## What each move cost\n\nMeans per move over the moves the log records: \
             the time each decision took as the runner measured it, and what the searchers \
             report (alpha-beta its depth, the MCTS family its simulations, both their nodes); \
             with a game clock, the share of its clock (base time and increments) an agent \
             used in a game, on average.\n\n",
        );
        out.push_str(&table.markdown());
    }
    out.push_str("\n## All games\n\n");
    for line in overall_lines(summary) {
        out.push_str(&format!("- {line}\n"));
    }
    out.push_str(&provenance_section(summary));
    out.push_str(RATINGS_NOTE);
    escape_control_lines(&out)
}

/// The build, rules and agent configurations that played the games, as
/// far as the run recorded them.
fn provenance_section(summary: &TournamentSummary) -> String {
    let provenance = &summary.provenance;
    let mut lines = Vec::new();
    if let Some(build) = &provenance.build {
        lines.push(format!("- played by {build}"));
    }
    if let Some(rules) = &provenance.rules_in_force {
        lines.push(format!("- rules in force: `{rules}`"));
    }
    if let Some(adjudication) = &summary.adjudication {
        lines.push(format!("- adjudication: `{adjudication}`"));
    }
    for (agent, configuration) in summary.agents.iter().zip(&provenance.agent_configurations) {
        lines.push(format!("- `{}`: `{configuration}`", agent.name));
    }
    if lines.is_empty() {
        return String::new();
    }
    format!("\n## Provenance\n\n{}\n", lines.join("\n"))
}

/// An SVG chart of the ratings: one row per agent, best first, a dot at the
/// rating and a bar over its 95% interval.
pub fn ratings_svg(summary: &TournamentSummary) -> String {
    const ROW: f64 = 28.0;
    const LABEL: f64 = 260.0;
    const PLOT: f64 = 420.0;
    const TOP: f64 = 40.0;
    let order = ranking(summary);
    let agents = &summary.agents;
    let mut low = agents
        .iter()
        .map(|a| a.elo_low)
        .fold(f64::INFINITY, f64::min)
        .min(0.0);
    let mut high = agents
        .iter()
        .map(|a| a.elo_high)
        .fold(f64::NEG_INFINITY, f64::max)
        .max(0.0);
    if !(low.is_finite() && high.is_finite()) || high - low < 1.0 {
        low = -100.0;
        high = 100.0;
    }
    let step = tick_step(high - low);
    low = (low / step).floor() * step;
    high = (high / step).ceil() * step;
    let x = |elo: f64| LABEL + (elo - low) / (high - low) * PLOT;
    let names: Vec<&str> = order
        .iter()
        .map(|&index| agents[index].name.as_str())
        .collect();
    let chart_names = ChartNames::of(&names);
    let anchor = names
        .iter()
        .position(|&name| name == summary.anchor)
        .map_or(summary.anchor.as_str(), |place| &chart_names.labels[place]);
    let title = format!(
        "{} ratings (Elo of {}, 95% intervals, anchor {anchor} = 0)",
        summary.game, summary.rated_by
    );
    // The title's 14-pixel text is wider than the 12-pixel labels'.
    let title_width = title.chars().count() as f64 * CHAR_WIDTH * 14.0 / 12.0 + 20.0;
    let (legend_width, legend_height) = chart_names.legend_size();
    let axis_bottom = TOP + ROW * order.len() as f64 + 40.0;
    let height = axis_bottom + legend_height;
    // The last tick's label is centred on the plot's right edge.
    let tick_label = format!("{high:+}").chars().count() as f64 * CHAR_WIDTH;
    let width = (LABEL + PLOT + (tick_label / 2.0 + 10.0).max(30.0))
        .max(title_width)
        .max(legend_width);
    let mut svg = String::new();
    writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
    )
    .unwrap();
    writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#).unwrap();
    writeln!(
        svg,
        r#"<text x="{}" y="20" text-anchor="middle" font-size="14">{}</text>"#,
        width / 2.0,
        escape(&title)
    )
    .unwrap();
    let axis_y = TOP + ROW * order.len() as f64;
    let mut tick = low;
    while tick <= high + step / 2.0 {
        writeln!(
            svg,
            r##"<line x1="{0:.1}" y1="{TOP}" x2="{0:.1}" y2="{axis_y}" stroke="#ddd"/><text x="{0:.1}" y="{1}" text-anchor="middle">{2:+}</text>"##,
            x(tick),
            axis_y + 16.0,
            tick
        )
        .unwrap();
        tick += step;
    }
    for (row, &index) in order.iter().enumerate() {
        let agent = &agents[index];
        let y = TOP + ROW * (row as f64 + 0.5);
        writeln!(
            svg,
            r##"<text x="{}" y="{:.1}" text-anchor="end" dominant-baseline="middle">{}</text><line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#1f5fa8" stroke-width="2"/><circle cx="{:.1}" cy="{y:.1}" r="4" fill="#1f5fa8"><title>{:+.0} [{:+.0}, {:+.0}]</title></circle>"##,
            LABEL - 10.0,
            y,
            escape(&chart_names.labels[row]),
            x(agent.elo_low),
            x(agent.elo_high),
            x(agent.elo),
            agent.elo,
            agent.elo_low,
            agent.elo_high
        )
        .unwrap();
    }
    svg.push_str(&chart_names.legend_svg(axis_bottom));
    svg.push_str("</svg>\n");
    svg
}

/// A round tick spacing giving about five ticks over `span`.
fn tick_step(span: f64) -> f64 {
    let raw = span / 5.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|factor| factor * magnitude)
        .find(|&step| step >= raw)
        .unwrap_or(10.0 * magnitude)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Writes a tournament's reports to `dir`: `summary.json`, `report.md` and
/// `ratings.svg`.
///
/// # Errors
/// If a file cannot be written.
pub fn write_reports(dir: &Path, summary: &TournamentSummary) -> Result<(), TournamentError> {
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|error| io_error(&path, error))
    };
    write(
        "summary.json",
        serde_json::to_string_pretty(summary).expect("summaries serialise") + "\n",
    )?;
    write("report.md", markdown_report(summary))?;
    write("ratings.svg", ratings_svg(summary))
}
