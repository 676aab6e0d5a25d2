//! Plots as SVG text.
//!
//! The plots here are a few lines, points and labels, so they are written
//! directly: no plotting library, no fonts to find, and output that is the
//! same on every machine and easy to check in a test.

use super::estimate::WinRate;
use std::fmt::Write;

const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 460.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 200.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 60.0;
/// Vertical room for one line of label text.
const LABEL_GAP: f64 = 14.0;
const PALETTE: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
];

/// Escapes text for SVG.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The difficulty curve: win rate (with its 95% interval as error bars)
/// against the search budget on a logarithmic axis, for `curve` points
/// `(budget, rate)`, and each of `references` (policies without a budget) as
/// a horizontal line with its interval as a band.
pub fn difficulty_curve_svg(
    title: &str,
    curve: &[(u64, WinRate)],
    references: &[WinRate],
) -> String {
    let (mut low, mut high) = curve
        .iter()
        .map(|&(budget, _)| (budget.max(1) as f64).log10())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
            (lo.min(x), hi.max(x))
        });
    if !low.is_finite() {
        // No curve yet: show the budgets the question is about, 10 to 100,000.
        (low, high) = (1.0, 5.0);
    }
    low = low.floor();
    high = high.ceil().max(low + 1.0);
    let plot_width = WIDTH - LEFT - RIGHT;
    let plot_height = HEIGHT - TOP - BOTTOM;
    let x_of =
        |budget: u64| LEFT + ((budget.max(1) as f64).log10() - low) / (high - low) * plot_width;
    let y_of = |rate: f64| TOP + (1.0 - rate) * plot_height;

    // Grid and axes.
    let mut svg = open_plot(title, plot_width, plot_height);
    log_grid(&mut svg, low, high, plot_width, plot_height);
    close_axes(
        &mut svg,
        "search budget (iterations per move, log scale)",
        "win rate (95% interval)",
        plot_width,
        plot_height,
    );

    // Labels on the right of the plot: (text, colour, height of its line).
    let mut labels: Vec<(String, &str, f64)> = Vec::new();

    // Reference policies: a band for the interval and a dashed line.
    for (index, reference) in references.iter().enumerate() {
        let colour = PALETTE[(index + 1) % PALETTE.len()];
        let (top, bottom) = (y_of(reference.ci_high), y_of(reference.ci_low));
        let _ = writeln!(
            svg,
            r#"<rect x="{LEFT}" y="{top:.1}" width="{plot_width:.1}" height="{:.1}" fill="{colour}" fill-opacity="0.15"/>"#,
            (bottom - top).max(0.5)
        );
        let y = y_of(reference.win_rate);
        let _ = writeln!(
            svg,
            r#"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{colour}" stroke-dasharray="6 4" stroke-width="1.5"/>"#,
            LEFT + plot_width
        );
        labels.push((
            format!("{} {:.1}%", reference.policy, 100.0 * reference.win_rate),
            colour,
            y,
        ));
    }

    // The curve: error bars, a line through the points, the points.
    let colour = PALETTE[0];
    let mut points = curve.to_vec();
    points.sort_by_key(|&(budget, _)| budget);
    for (budget, rate) in &points {
        let x = x_of(*budget);
        let _ = writeln!(
            svg,
            r#"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="{colour}"/>"#,
            y_of(rate.ci_high),
            y_of(rate.ci_low)
        );
    }
    if points.len() > 1 {
        let path: Vec<String> = points
            .iter()
            .map(|(budget, rate)| format!("{:.1},{:.1}", x_of(*budget), y_of(rate.win_rate)))
            .collect();
        let _ = writeln!(
            svg,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
            path.join(" ")
        );
    }
    for (budget, rate) in &points {
        let _ = writeln!(
            svg,
            r#"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{colour}"><title>{} {:.1}%</title></circle>"#,
            x_of(*budget),
            y_of(rate.win_rate),
            escape(&rate.policy),
            100.0 * rate.win_rate
        );
    }
    match points.last() {
        None => {
            let _ = writeln!(
                svg,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="gray">no budgeted (mcts) policy in this run</text>"#,
                LEFT + plot_width / 2.0,
                TOP + plot_height / 2.0
            );
        }
        Some((_, last)) => labels.push((
            last.policy
                .split(':')
                .next()
                .unwrap_or("search")
                .to_string(),
            colour,
            y_of(last.win_rate),
        )),
    }

    end_labels(&mut svg, labels, plot_width, plot_height);
    svg
}

/// One policy's line in a [`sweep_svg`]: its win rate at each value of the
/// swept parameter. `dashed` marks a reference that does not play by the
/// rules every other policy plays by (it sees hidden cards).
#[derive(Clone, Debug, PartialEq)]
pub struct SweepSeries {
    /// The policy's name in the legend.
    pub label: String,
    /// Whether the line is drawn dashed, as a reference.
    pub dashed: bool,
    /// `(value, rate)` per value of the swept parameter, in the order drawn.
    pub points: Vec<(f64, WinRate)>,
}

/// Win rate (with its 95% interval as error bars) against a parameter on a
/// linear axis, one line per policy, each labelled at its last point.
pub fn sweep_svg(title: &str, x_label: &str, series: &[SweepSeries]) -> String {
    let xs = series
        .iter()
        .flat_map(|line| line.points.iter().map(|&(x, _)| x));
    let (mut low, mut high) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    if !low.is_finite() {
        (low, high) = (0.0, 1.0);
    }
    if high <= low {
        high = low + 1.0;
    }
    let plot_width = WIDTH - LEFT - RIGHT;
    let plot_height = HEIGHT - TOP - BOTTOM;
    let x_of = |x: f64| LEFT + (x - low) / (high - low) * plot_width;
    let y_of = |rate: f64| TOP + (1.0 - rate) * plot_height;

    let mut svg = open_plot(title, plot_width, plot_height);
    // About ten ticks at round steps.
    let raw_step = (high - low) / 10.0;
    let magnitude = 10f64.powf(raw_step.log10().floor());
    let tick = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|factor| factor * magnitude)
        .find(|&step| step >= raw_step)
        .unwrap_or(10.0 * magnitude);
    let mut value = (low / tick).ceil() * tick;
    while value <= high + 1e-9 {
        let x = x_of(value);
        let _ = writeln!(
            svg,
            r##"<line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{:.1}" stroke="#e5e5e5"/>"##,
            TOP + plot_height
        );
        let _ = writeln!(
            svg,
            r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{value}</text>"#,
            TOP + plot_height + 18.0
        );
        value += tick;
    }
    close_axes(
        &mut svg,
        x_label,
        "win rate (95% interval)",
        plot_width,
        plot_height,
    );

    let mut labels: Vec<(String, &str, f64)> = Vec::new();
    for (index, line) in series.iter().enumerate() {
        let colour = PALETTE[index % PALETTE.len()];
        let mut points = line.points.clone();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (x, rate) in &points {
            let _ = writeln!(
                svg,
                r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}"/>"#,
                x_of(*x),
                y_of(rate.ci_high),
                x_of(*x),
                y_of(rate.ci_low)
            );
        }
        if points.len() > 1 {
            let path: Vec<String> = points
                .iter()
                .map(|(x, rate)| format!("{:.1},{:.1}", x_of(*x), y_of(rate.win_rate)))
                .collect();
            let dash = if line.dashed {
                r#" stroke-dasharray="6 4""#
            } else {
                ""
            };
            let _ = writeln!(
                svg,
                r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>"#,
                path.join(" ")
            );
        }
        for (x, rate) in &points {
            let _ = writeln!(
                svg,
                r#"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{colour}"><title>{} at {x}: {:.1}%</title></circle>"#,
                x_of(*x),
                y_of(rate.win_rate),
                escape(&line.label),
                100.0 * rate.win_rate
            );
        }
        if let Some((_, last)) = points.last() {
            labels.push((line.label.clone(), colour, y_of(last.win_rate)));
        }
    }
    end_labels(&mut svg, labels, plot_width, plot_height);
    svg
}

/// Vertical grid lines and labels at the powers of ten from `10^low` to
/// `10^high` on a logarithmic horizontal axis.
fn log_grid(svg: &mut String, low: f64, high: f64, plot_width: f64, plot_height: f64) {
    let mut exponent = low as i32;
    while f64::from(exponent) <= high {
        let x = LEFT + (f64::from(exponent) - low) / (high - low) * plot_width;
        let _ = writeln!(
            svg,
            r##"<line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{:.1}" stroke="#e5e5e5"/>"##,
            TOP + plot_height
        );
        let label = 10u64.pow(exponent.max(0) as u32);
        let _ = writeln!(
            svg,
            r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{label}</text>"#,
            TOP + plot_height + 18.0
        );
        exponent += 1;
    }
}

/// Shares (0 to 1, shown as percentages) against a count on a logarithmic
/// axis, one line per series, each labelled at its last point: e.g. the
/// exploitability of a search's strategy, as a share of the payoff range,
/// against its iterations.
pub fn log_curves_svg(
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[(String, Vec<(u64, f64)>)],
) -> String {
    let exponents = series
        .iter()
        .flat_map(|(_, points)| points.iter().map(|&(x, _)| (x.max(1) as f64).log10()));
    let (mut low, mut high) = exponents.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    if !low.is_finite() {
        (low, high) = (1.0, 5.0);
    }
    low = low.floor();
    high = high.ceil().max(low + 1.0);
    let plot_width = WIDTH - LEFT - RIGHT;
    let plot_height = HEIGHT - TOP - BOTTOM;
    let x_of = |x: u64| LEFT + ((x.max(1) as f64).log10() - low) / (high - low) * plot_width;
    let y_of = |share: f64| TOP + (1.0 - share.clamp(0.0, 1.0)) * plot_height;
    let mut svg = open_plot(title, plot_width, plot_height);
    log_grid(&mut svg, low, high, plot_width, plot_height);
    close_axes(&mut svg, x_label, y_label, plot_width, plot_height);
    let mut labels: Vec<(String, &str, f64)> = Vec::new();
    for (index, (label, points)) in series.iter().enumerate() {
        let colour = PALETTE[index % PALETTE.len()];
        let mut points = points.clone();
        points.sort_by_key(|&(x, _)| x);
        let path: Vec<String> = points
            .iter()
            .map(|&(x, share)| format!("{:.1},{:.1}", x_of(x), y_of(share)))
            .collect();
        let _ = writeln!(
            svg,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
            path.join(" ")
        );
        for &(x, share) in &points {
            let _ = writeln!(
                svg,
                r#"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{colour}"><title>{} at {x}: {:.1}%</title></circle>"#,
                x_of(x),
                y_of(share),
                escape(label),
                100.0 * share
            );
        }
        if let Some(&(_, last)) = points.last() {
            labels.push((label.clone(), colour, y_of(last)));
        }
    }
    end_labels(&mut svg, labels, plot_width, plot_height);
    svg
}

/// Starts a plot of win rates: the SVG element, a white background, the
/// title, and the horizontal grid with the win-rate scale (0 to 100%).
fn open_plot(title: &str, plot_width: f64, plot_height: f64) -> String {
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="28" text-anchor="middle" font-size="15">{}</text>"#,
        LEFT + plot_width / 2.0,
        escape(title)
    );
    for step in 0..=10 {
        let y = TOP + (1.0 - f64::from(step) / 10.0) * plot_height;
        let _ = writeln!(
            svg,
            r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#e5e5e5"/>"##,
            LEFT + plot_width
        );
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}%</text>"#,
            LEFT - 6.0,
            y + 4.0,
            step * 10
        );
    }
    svg
}

/// Draws the plot's frame and the names of its two axes.
fn close_axes(svg: &mut String, x_label: &str, y_label: &str, plot_width: f64, plot_height: f64) {
    let _ = writeln!(
        svg,
        r#"<rect x="{LEFT}" y="{TOP}" width="{plot_width:.1}" height="{plot_height:.1}" fill="none" stroke="black"/>"#
    );
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        LEFT + plot_width / 2.0,
        HEIGHT - 16.0,
        escape(x_label)
    );
    let _ = writeln!(
        svg,
        r#"<text transform="translate(18 {:.1}) rotate(-90)" text-anchor="middle">{}</text>"#,
        TOP + plot_height / 2.0,
        escape(y_label)
    );
}

/// Writes each line's label beside the plot at the height of the line's last
/// point, spread so that no two labels overlap, and closes the SVG. A label
/// is its text, its colour and the height of its line.
fn end_labels(
    svg: &mut String,
    mut labels: Vec<(String, &str, f64)>,
    plot_width: f64,
    plot_height: f64,
) {
    labels.sort_by(|a, b| a.2.total_cmp(&b.2));
    let mut ys: Vec<f64> = labels.iter().map(|label| label.2 + 4.0).collect();
    for i in 1..ys.len() {
        ys[i] = ys[i].max(ys[i - 1] + LABEL_GAP);
    }
    let lowest = TOP + plot_height + 4.0;
    if let Some(last) = ys.last_mut()
        && *last > lowest
    {
        *last = lowest;
        for i in (0..ys.len() - 1).rev() {
            ys[i] = ys[i].min(ys[i + 1] - LABEL_GAP);
        }
    }
    for ((text, colour, _), y) in labels.iter().zip(ys) {
        let _ = writeln!(
            svg,
            r#"<text x="{:.1}" y="{y:.1}" fill="{colour}">{}</text>"#,
            LEFT + plot_width + 8.0,
            escape(text)
        );
    }
    svg.push_str("</svg>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plot_shows_every_policy_and_point() {
        let curve = vec![
            (100, WinRate::new("mcts:iters=100", 20, 100, 1.0)),
            (10, WinRate::new("mcts:iters=10", 5, 100, 1.0)),
        ];
        let references = vec![
            WinRate::new("random", 1, 100, 1.0),
            WinRate::new("exact & co", 90, 100, 1.0),
        ];
        let svg = difficulty_curve_svg("Fenrir's Path", &curve, &references);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<circle").count(), 2);
        assert!(svg.contains("random 1.0%"));
        assert!(svg.contains("exact &amp; co 90.0%"));
        assert!(svg.contains("<polyline"));
        let empty = difficulty_curve_svg("t", &[], &references);
        assert!(empty.contains("no budgeted"));
    }

    #[test]
    fn the_sweep_plot_draws_a_line_per_policy() {
        let line = |label: &str, dashed: bool, rates: &[u64]| SweepSeries {
            label: label.to_string(),
            dashed,
            points: rates
                .iter()
                .enumerate()
                .map(|(i, &wins)| ((10 + 10 * i) as f64, WinRate::new(label, wins, 100, 1.0)))
                .collect(),
        };
        let series = vec![
            line("counting", false, &[10, 40, 80]),
            line("open-hand <sees all>", true, &[90, 100, 100]),
        ];
        let svg = sweep_svg("Fetters of Fenrir", "track length", &series);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<circle").count(), 6);
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches("stroke-dasharray").count(), 1);
        assert!(svg.contains("open-hand &lt;sees all&gt;"));
        assert!(svg.contains(">20<"), "a tick at 20");
        assert!(sweep_svg("t", "x", &[]).contains("</svg>"));
    }
}
