//! The page's charts as inline SVG: the score of each agent against each
//! other, the game lengths, a match's log-likelihood ratio and win rates
//! with their intervals.

use crate::arena::TournamentSummary;
use crate::arena::tournament::ChartNames;
use crate::arena::winrate::PolicyRate;
use crate::core::escape_xml;
use std::fmt::Write;

const FONT: &str = "font-family=\"sans-serif\" font-size=\"12\"";

fn open_svg(width: f64, height: f64) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" \
         width=\"{width}\" height=\"{height}\" {FONT}>\n"
    )
}

/// The score of each agent (rows) against each other (columns), per game a
/// win 1 and a draw 1/2, as a heat map: red below 50%, blue above. The
/// scores are the summary's pairings', read from both sides.
pub fn score_heat_map(summary: &TournamentSummary) -> String {
    let names: Vec<&str> = summary
        .agents
        .iter()
        .map(|agent| agent.name.as_str())
        .collect();
    let n = names.len();
    let mut scores = vec![vec![None; n]; n];
    for pairing in &summary.pairings {
        let place = |name: &str| names.iter().position(|known| *known == name);
        if let (Some(a), Some(b)) = (place(&pairing.agents[0]), place(&pairing.agents[1]))
            && pairing.games > 0
        {
            scores[a][b] = Some((pairing.score, pairing.games));
            scores[b][a] = Some((1.0 - pairing.score, pairing.games));
        }
    }
    const CELL: f64 = 56.0;
    let chart_names = ChartNames::of(&names);
    let labels = &chart_names.labels;
    let label = chart_names.label_width() + 12.0;
    // A column's label rises to the right at 45 degrees from the middle of
    // its column.
    let overhang =
        (chart_names.label_width() * std::f64::consts::FRAC_1_SQRT_2 - CELL / 2.0).max(0.0) + 10.0;
    let (legend_width, legend_height) = chart_names.legend_size();
    let grid_bottom = label + CELL * n as f64 + 10.0;
    let (width, height) = (
        (label + CELL * n as f64 + overhang).max(legend_width),
        grid_bottom + legend_height,
    );
    let mut svg = open_svg(width, height);
    for (column, name) in labels.iter().enumerate() {
        let x = label + CELL * (column as f64 + 0.5);
        let _ = writeln!(
            svg,
            "<text transform=\"translate({x:.1},{:.1}) rotate(-45)\">{}</text>",
            label - 6.0,
            escape_xml(name)
        );
    }
    for (row, name) in names.iter().enumerate() {
        let y = label + CELL * row as f64;
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" dominant-baseline=\"central\">{}</text>",
            label - 6.0,
            y + CELL / 2.0,
            escape_xml(&labels[row])
        );
        for (column, score) in scores[row].iter().enumerate() {
            let x = label + CELL * column as f64;
            let (fill, text, title) = match score {
                Some((score, games)) => (
                    heat_colour(*score),
                    format!("{:.0}%", 100.0 * score),
                    format!(
                        "{name} against {}: {:.1}% of {games} games",
                        names[column],
                        100.0 * score
                    ),
                ),
                None => ("#eee".to_string(), String::new(), String::new()),
            };
            let _ = writeln!(
                svg,
                "<g><title>{}</title><rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{CELL}\" height=\"{CELL}\" \
                 fill=\"{fill}\" stroke=\"white\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" \
                 dominant-baseline=\"central\">{text}</text></g>",
                escape_xml(&title),
                x + CELL / 2.0,
                y + CELL / 2.0
            );
        }
    }
    svg.push_str(&chart_names.legend_svg(grid_bottom));
    svg.push_str("</svg>\n");
    svg
}

/// White at a score of 50%, deepening to red at 0 and to blue at 1.
fn heat_colour(score: f64) -> String {
    let strength = (2.0 * (score - 0.5)).clamp(-1.0, 1.0);
    let fade = |amount: f64| (255.0 * (1.0 - 0.75 * amount)).round() as u8;
    let (red, green, blue) = if strength < 0.0 {
        (255, fade(-strength), fade(-strength))
    } else {
        (fade(strength), fade(0.6 * strength), 255)
    };
    format!("#{red:02x}{green:02x}{blue:02x}")
}

/// A histogram of game lengths in plies, in at most 30 bins of equal width.
pub fn length_histogram(lengths: &[usize]) -> String {
    let (Some(&min), Some(&max)) = (lengths.iter().min(), lengths.iter().max()) else {
        return String::new();
    };
    let bins = (max - min + 1).min(30);
    let width_of_bin = (max - min + 1).div_ceil(bins);
    let mut counts = vec![0usize; bins];
    for &length in lengths {
        counts[((length - min) / width_of_bin).min(bins - 1)] += 1;
    }
    let most = counts.iter().copied().max().unwrap_or(1).max(1);
    let (left, top, plot_width, plot_height) = (50.0, 20.0, 600.0, 200.0);
    let bar = plot_width / bins as f64;
    let mut svg = open_svg(left + plot_width + 20.0, top + plot_height + 50.0);
    for (bin, &count) in counts.iter().enumerate() {
        let height = plot_height * count as f64 / most as f64;
        let from = min + bin * width_of_bin;
        let to = from + width_of_bin - 1;
        let range = match from == to {
            true => from.to_string(),
            false => format!("{from}-{to}"),
        };
        let _ = writeln!(
            svg,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{height:.1}\" fill=\"#1f5fa8\">\
             <title>{range} plies: {count} {}</title></rect>",
            left + bar * bin as f64 + 1.0,
            top + plot_height - height,
            (bar - 2.0).max(1.0),
            if count == 1 { "game" } else { "games" }
        );
    }
    let bottom = top + plot_height;
    let _ = writeln!(
        svg,
        "<line x1=\"{left}\" y1=\"{bottom}\" x2=\"{}\" y2=\"{bottom}\" stroke=\"black\"/>\
         <text x=\"{left}\" y=\"{}\" text-anchor=\"middle\">{min}</text>\
         <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{max}</text>\
         <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">length in plies</text>\
         <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{most}</text>\
         <text x=\"{}\" y=\"{bottom}\" text-anchor=\"end\">0</text>",
        left + plot_width,
        bottom + 16.0,
        left + plot_width,
        bottom + 16.0,
        left + plot_width / 2.0,
        bottom + 36.0,
        left - 6.0,
        top + 10.0,
        left - 6.0,
    );
    svg.push_str("</svg>\n");
    svg
}

/// A match's log-likelihood ratio after each counted pair against the
/// games read, with the bounds at which the test decides.
pub fn llr_chart(points: &[(usize, f64)], bounds: (f64, f64)) -> String {
    let (left, top, plot_width, plot_height) = (60.0, 20.0, 600.0, 240.0);
    let games = points
        .iter()
        .map(|&(games, _)| games)
        .max()
        .unwrap_or(2)
        .max(2) as f64;
    let (mut low, mut high) = (bounds.0.min(0.0), bounds.1.max(0.0));
    for &(_, llr) in points {
        if llr.is_finite() {
            low = low.min(llr);
            high = high.max(llr);
        }
    }
    let span = (high - low).max(1e-9);
    let x = |games_read: f64| left + plot_width * games_read / games;
    let y = |llr: f64| top + plot_height * (high - llr.clamp(low, high)) / span;
    let mut svg = open_svg(left + plot_width + 20.0, top + plot_height + 50.0);
    for (bound, name) in [(bounds.1, "accept H1"), (0.0, ""), (bounds.0, "accept H0")] {
        let _ = writeln!(
            svg,
            "<line x1=\"{left}\" y1=\"{0:.1}\" x2=\"{1:.1}\" y2=\"{0:.1}\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\
             <text x=\"{2:.1}\" y=\"{0:.1}\" text-anchor=\"end\" dominant-baseline=\"central\">{bound:.2}</text>\
             <text x=\"{1:.1}\" y=\"{3:.1}\" text-anchor=\"end\">{name}</text>",
            y(bound),
            left + plot_width,
            left - 6.0,
            y(bound) - 4.0
        );
    }
    let mut path = format!("M{:.1},{:.1}", x(0.0), y(0.0));
    for &(games_read, llr) in points {
        let _ = write!(path, " L{:.1},{:.1}", x(games_read as f64), y(llr));
    }
    let _ = writeln!(
        svg,
        "<path d=\"{path}\" fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"2\"/>\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">games played ({} in all)</text>",
        left + plot_width / 2.0,
        top + plot_height + 36.0,
        games
    );
    svg.push_str("</svg>\n");
    svg
}

/// Each policy's win rate as a dot with its 95% interval as a bar, one row
/// per policy, on a scale from 0 to 100%.
pub fn win_rate_chart(policies: &[PolicyRate]) -> String {
    const ROW: f64 = 28.0;
    let label = policies
        .iter()
        .map(|policy| policy.label().chars().count())
        .max()
        .unwrap_or(0)
        .min(60) as f64
        * 7.0
        + 12.0;
    let (top, plot_width) = (20.0, 500.0);
    let x = |rate: f64| label + plot_width * rate.clamp(0.0, 1.0);
    let bottom = top + ROW * policies.len() as f64;
    let mut svg = open_svg(label + plot_width + 30.0, bottom + 30.0);
    for tick in 0..=10 {
        let rate = f64::from(tick) / 10.0;
        let _ = writeln!(
            svg,
            "<line x1=\"{0:.1}\" y1=\"{top}\" x2=\"{0:.1}\" y2=\"{bottom}\" stroke=\"#ddd\"/>\
             <text x=\"{0:.1}\" y=\"{1:.1}\" text-anchor=\"middle\">{2}%</text>",
            x(rate),
            bottom + 16.0,
            tick * 10
        );
    }
    for (row, policy) in policies.iter().enumerate() {
        let rate = &policy.rate;
        let y = top + ROW * (row as f64 + 0.5);
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{y:.1}\" text-anchor=\"end\" dominant-baseline=\"central\">{}</text>\
             <line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#1f5fa8\" stroke-width=\"2\"/>\
             <circle cx=\"{:.1}\" cy=\"{y:.1}\" r=\"4\" fill=\"#1f5fa8\"><title>{:.2}% [{:.2}%, {:.2}%] of {} deals</title></circle>",
            label - 8.0,
            escape_xml(&policy.label()),
            x(rate.ci_low),
            x(rate.ci_high),
            x(rate.win_rate),
            100.0 * rate.win_rate,
            100.0 * rate.ci_low,
            100.0 * rate.ci_high,
            rate.deals
        );
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::tournament::assert_no_text_is_cut_off;

    #[test]
    fn the_heat_runs_from_red_through_white_to_blue() {
        assert_eq!(heat_colour(0.5), "#ffffff");
        assert_eq!(heat_colour(0.0), "#ff4040");
        assert_eq!(heat_colour(1.0), "#408cff");
    }

    /// The charts that name every agent, of a tournament of `agents`
    /// before any game: the heat map and the ratings.
    fn charts_of(agents: &[&str]) -> [String; 2] {
        let config = crate::arena::TournamentConfig::of_agents("hnefatafl", agents, 2);
        let summary = TournamentSummary::compute(&config, &[], false);
        [
            score_heat_map(&summary),
            crate::arena::ratings_svg(&summary),
        ]
    }

    #[test]
    fn no_agent_name_is_cut_off_by_the_charts_edges() {
        let long = "mcts:iters=300,expand=all,minimax=1,playout=0,c=0,pick=value,tempo=0.024";
        for svg in charts_of(&["greedy", long, "htp:name=capture,cmd=engine --fast"]) {
            assert_no_text_is_cut_off(&svg);
            // The long spec is in the legend, whole; the engine by its name.
            assert!(svg.contains(&format!("[2] {long}")), "{svg}");
            assert!(svg.contains("[3] capture"), "{svg}");
        }
        // Names short enough are written out, even at the longest.
        let longest = "mcts:iters=100,name=twenty-four characters!";
        for svg in charts_of(&["greedy", longest, "random"]) {
            assert_no_text_is_cut_off(&svg);
            assert!(svg.contains(">twenty-four characters!<"), "{svg}");
        }
    }

    #[test]
    fn the_histogram_counts_every_game_once() {
        let svg = length_histogram(&[3, 3, 4, 10]);
        assert!(svg.contains("<title>3 plies: 2 games</title>"), "{svg}");
        assert!(svg.contains("<title>4 plies: 1 game</title>"), "{svg}");
        assert!(svg.contains("<title>10 plies: 1 game</title>"), "{svg}");
        assert_eq!(svg.matches("<rect").count(), 8);
        assert!(length_histogram(&[]).is_empty());
    }
}
