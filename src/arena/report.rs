//! Tournament reports: a table for the terminal, a Markdown page and an SVG
//! chart of the ratings.

use super::summary::{LengthStats, Record, TournamentSummary};
use std::collections::BTreeMap;
use std::fmt::Write;

fn length_text(length: &Option<LengthStats>) -> String {
    match length {
        Some(length) => format!("{:.1} ({}-{})", length.average, length.min, length.max),
        None => "-".to_string(),
    }
}

fn reasons_text(reasons: &BTreeMap<String, usize>) -> String {
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

/// The sides (seat names) in seat order, as they appear in the agents' records.
fn side_names(summary: &TournamentSummary) -> Vec<String> {
    let mut sides: Vec<String> = Vec::new();
    for agent in &summary.agents {
        for side in &agent.by_side {
            if !sides.contains(&side.side) {
                sides.push(side.side.clone());
            }
        }
    }
    sides
}

/// A plain-text report for the terminal.
pub fn text_report(summary: &TournamentSummary) -> String {
    let mut out = String::new();
    let width = summary
        .agents
        .iter()
        .map(|agent| agent.spec.len())
        .max()
        .unwrap_or(5)
        .max(5);
    let sides = side_names(summary);
    writeln!(
        out,
        "{} tournament: {} agents, {} of {} games played, seed {}, Elo anchored on {} = 0",
        summary.game,
        summary.agents.len(),
        summary.games_played,
        summary.games_scheduled,
        summary.seed,
        summary.anchor
    )
    .unwrap();
    write!(
        out,
        "\n{:>4}  {:<width$} {:>5} {:>4} {:>4} {:>4} {:>6} {:>6}  {:<15}",
        "rank", "agent", "games", "W", "D", "L", "score", "Elo", "95% interval"
    )
    .unwrap();
    for side in &sides {
        write!(out, " {:>14}", format!("as {side}")).unwrap();
    }
    writeln!(out, "  length avg (min-max)").unwrap();
    for (rank, &index) in ranking(summary).iter().enumerate() {
        let agent = &summary.agents[index];
        write!(
            out,
            "{:>4}  {:<width$} {:>5} {:>4} {:>4} {:>4} {:>5.1}% {:>+6.0}  [{:>+5.0}, {:>+5.0}]",
            rank + 1,
            agent.spec,
            agent.games,
            agent.wins,
            agent.draws,
            agent.losses,
            100.0 * agent.score,
            agent.elo,
            agent.elo_low,
            agent.elo_high
        )
        .unwrap();
        for side in &sides {
            let text = agent
                .by_side
                .iter()
                .find(|entry| &entry.side == side)
                .map_or("-".to_string(), |entry| record_text(&entry.record));
            write!(out, " {text:>14}").unwrap();
        }
        writeln!(out, "  {}", length_text(&agent.length)).unwrap();
    }
    writeln!(out, "\npairings (first agent's view):").unwrap();
    for pairing in &summary.pairings {
        write!(
            out,
            "  {:<width$} vs {:<width$} {:>4} games  +{} ={} -{}  {:>5.1}%  length {}",
            pairing.agents[0],
            pairing.agents[1],
            pairing.games,
            pairing.wins,
            pairing.draws,
            pairing.losses,
            100.0 * pairing.score,
            length_text(&pairing.length)
        )
        .unwrap();
        if let Some(margins) = &pairing.pair_margins {
            let total: f64 = margins.iter().sum();
            write!(out, "  summed margin {total:+}").unwrap();
        }
        writeln!(out).unwrap();
    }
    let overall = &summary.overall;
    let first = sides.first().map_or("first player", String::as_str);
    let second = sides.get(1).map_or("second player", String::as_str);
    writeln!(
        out,
        "\noverall: {} games; {first} (first to move) won {}, {second} won {}, {} drawn; first-player score {:.1}%",
        overall.games,
        overall.first_player_wins,
        overall.second_player_wins,
        overall.draws,
        100.0 * overall.first_player_score
    )
    .unwrap();
    writeln!(out, "length: {} plies", length_text(&overall.length)).unwrap();
    writeln!(out, "game ends: {}", reasons_text(&overall.reasons)).unwrap();
    out
}

/// A Markdown report with the same content and the end reasons per agent.
pub fn markdown_report(summary: &TournamentSummary) -> String {
    let mut out = String::new();
    let sides = side_names(summary);
    writeln!(out, "# {} tournament\n", summary.game).unwrap();
    writeln!(
        out,
        "{} agents, {} of {} games played ({} per pairing, colour-swapped pairs), seed {}, rules `{}`. \
         Elo from a Bradley-Terry fit, anchored on `{}` = 0, with 95% intervals.\n",
        summary.agents.len(),
        summary.games_played,
        summary.games_scheduled,
        summary.games_per_pair,
        summary.seed,
        if summary.rules.is_empty() { "default" } else { &summary.rules },
        summary.anchor
    )
    .unwrap();
    write!(
        out,
        "| rank | agent | games | W | D | L | score | Elo | 95% interval |"
    )
    .unwrap();
    for side in &sides {
        write!(out, " as {side} |").unwrap();
    }
    writeln!(out, " length avg (min-max) | game ends |").unwrap();
    write!(
        out,
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
    )
    .unwrap();
    for _ in &sides {
        write!(out, " --- |").unwrap();
    }
    writeln!(out, " --- | --- |").unwrap();
    for (rank, &index) in ranking(summary).iter().enumerate() {
        let agent = &summary.agents[index];
        write!(
            out,
            "| {} | `{}` | {} | {} | {} | {} | {:.1}% | {:+.0} | [{:+.0}, {:+.0}] |",
            rank + 1,
            agent.spec,
            agent.games,
            agent.wins,
            agent.draws,
            agent.losses,
            100.0 * agent.score,
            agent.elo,
            agent.elo_low,
            agent.elo_high
        )
        .unwrap();
        for side in &sides {
            let text = agent
                .by_side
                .iter()
                .find(|entry| &entry.side == side)
                .map_or("-".to_string(), |entry| record_text(&entry.record));
            write!(out, " {text} |").unwrap();
        }
        writeln!(
            out,
            " {} | {} |",
            length_text(&agent.length),
            reasons_text(&agent.reasons)
        )
        .unwrap();
    }
    writeln!(out, "\n## Pairings\n").unwrap();
    let scored = summary
        .pairings
        .iter()
        .any(|pairing| pairing.pair_margins.is_some());
    write!(
        out,
        "| agent | opponent | games | W | D | L | score | length avg (min-max) | game ends |"
    )
    .unwrap();
    if scored {
        write!(out, " margins per pair | summed margin |").unwrap();
    }
    writeln!(out).unwrap();
    write!(
        out,
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |"
    )
    .unwrap();
    if scored {
        write!(out, " --- | ---: |").unwrap();
    }
    writeln!(out).unwrap();
    for pairing in &summary.pairings {
        write!(
            out,
            "| `{}` | `{}` | {} | {} | {} | {} | {:.1}% | {} | {} |",
            pairing.agents[0],
            pairing.agents[1],
            pairing.games,
            pairing.wins,
            pairing.draws,
            pairing.losses,
            100.0 * pairing.score,
            length_text(&pairing.length),
            reasons_text(&pairing.reasons)
        )
        .unwrap();
        if let Some(margins) = &pairing.pair_margins {
            let listed: Vec<String> = margins.iter().map(|m| format!("{m:+}")).collect();
            write!(
                out,
                " {} | {:+} |",
                listed.join(" "),
                margins.iter().sum::<f64>()
            )
            .unwrap();
        }
        writeln!(out).unwrap();
    }
    let overall = &summary.overall;
    writeln!(out, "\n## All games\n").unwrap();
    writeln!(out, "- games: {}, drawn: {}", overall.games, overall.draws).unwrap();
    writeln!(
        out,
        "- first player ({}) won {}, second player ({}) won {}; first-player score {:.1}%",
        sides.first().map_or("-", String::as_str),
        overall.first_player_wins,
        sides.get(1).map_or("-", String::as_str),
        overall.second_player_wins,
        100.0 * overall.first_player_score
    )
    .unwrap();
    writeln!(out, "- length in plies: {}", length_text(&overall.length)).unwrap();
    writeln!(out, "- game ends: {}", reasons_text(&overall.reasons)).unwrap();
    out
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
    let height = TOP + ROW * order.len() as f64 + 40.0;
    let width = LABEL + PLOT + 30.0;
    let mut svg = String::new();
    writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
    )
    .unwrap();
    writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#).unwrap();
    writeln!(
        svg,
        r#"<text x="{}" y="20" text-anchor="middle" font-size="14">{} ratings (Elo, 95% intervals, anchor {} = 0)</text>"#,
        width / 2.0,
        escape(&summary.game),
        escape(&summary.anchor)
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
            escape(&agent.spec),
            x(agent.elo_low),
            x(agent.elo_high),
            x(agent.elo),
            agent.elo,
            agent.elo_low,
            agent.elo_high
        )
        .unwrap();
    }
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
