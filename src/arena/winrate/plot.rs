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
/// The size of the plotting area inside the margins.
const PLOT_WIDTH: f64 = WIDTH - LEFT - RIGHT;
const PLOT_HEIGHT: f64 = HEIGHT - TOP - BOTTOM;
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
    let (low, high) = decades(curve.iter().map(|&(budget, _)| budget));
    let x_of = |budget: u64| LEFT + (log_of(budget) - low) / (high - low) * PLOT_WIDTH;
    let y_of = |rate: f64| TOP + (1.0 - rate) * PLOT_HEIGHT;

    // Grid and axes.
    let mut svg = open_plot(title);
    log_grid(&mut svg, low, high);
    close_axes(
        &mut svg,
        "search budget (iterations per move, log scale)",
        "win rate (95% interval)",
    );

    // Labels on the right of the plot: (text, colour, height of its line).
    let mut labels: Vec<(String, &str, f64)> = Vec::new();

    // Reference policies: a band for the interval and a dashed line.
    for (index, reference) in references.iter().enumerate() {
        let colour = PALETTE[(index + 1) % PALETTE.len()];
        let (top, bottom) = (y_of(reference.ci_high), y_of(reference.ci_low));
        let _ = writeln!(
            svg,
            r#"<rect x="{LEFT}" y="{top:.1}" width="{PLOT_WIDTH:.1}" height="{:.1}" fill="{colour}" fill-opacity="0.15"/>"#,
            (bottom - top).max(0.5)
        );
        let y = y_of(reference.win_rate);
        let _ = writeln!(
            svg,
            r#"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{colour}" stroke-dasharray="6 4" stroke-width="1.5"/>"#,
            LEFT + PLOT_WIDTH
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
    let markers: Vec<Marker> = points
        .iter()
        .map(|(budget, rate)| {
            let tooltip = format!("{} {:.1}%", escape(&rate.policy), 100.0 * rate.win_rate);
            Marker::of_rate(x_of(*budget), rate, y_of, tooltip)
        })
        .collect();
    draw_line(&mut svg, colour, &markers, false);
    match points.last() {
        None => {
            let _ = writeln!(
                svg,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="gray">no budgeted (mcts) policy in this run</text>"#,
                LEFT + PLOT_WIDTH / 2.0,
                TOP + PLOT_HEIGHT / 2.0
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

    end_labels(&mut svg, labels);
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
    let (low, mut high) = span(xs).unwrap_or((0.0, 1.0));
    if high <= low {
        high = low + 1.0;
    }
    let x_of = |x: f64| LEFT + (x - low) / (high - low) * PLOT_WIDTH;
    let y_of = |rate: f64| TOP + (1.0 - rate) * PLOT_HEIGHT;

    let mut svg = open_plot(title);
    for value in round_ticks(low, high) {
        vertical_tick(&mut svg, x_of(value), value);
    }
    close_axes(&mut svg, x_label, "win rate (95% interval)");

    let mut labels: Vec<(String, &str, f64)> = Vec::new();
    for (index, line) in series.iter().enumerate() {
        let colour = PALETTE[index % PALETTE.len()];
        let mut points = line.points.clone();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        let markers: Vec<Marker> = points
            .iter()
            .map(|(x, rate)| {
                let tooltip = at_value(&line.label, *x, rate.win_rate);
                Marker::of_rate(x_of(*x), rate, y_of, tooltip)
            })
            .collect();
        draw_line(&mut svg, colour, &markers, line.dashed);
        if let Some(last) = markers.last() {
            labels.push((line.label.clone(), colour, last.y));
        }
    }
    end_labels(&mut svg, labels);
    svg
}

/// About ten values at a round step (1, 2 or 5 times a power of ten)
/// from `low` to `high`.
fn round_ticks(low: f64, high: f64) -> Vec<f64> {
    let raw_step = (high - low) / 10.0;
    let magnitude = 10f64.powf(raw_step.log10().floor());
    let tick = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|factor| factor * magnitude)
        .find(|&step| step >= raw_step)
        .unwrap_or(10.0 * magnitude);
    let mut ticks = Vec::new();
    let mut value = (low / tick).ceil() * tick;
    while value <= high + 1e-9 * tick {
        // A sum of steps drifts off the round value: 0.30000000000000004.
        ticks.push((value / tick).round() * tick);
        value += tick;
    }
    ticks
}

/// A point of a [`ValueSeries`]: `(x, y, interval)`, the interval, if
/// any, drawn as an error bar.
pub type ValuePoint = (f64, f64, Option<(f64, f64)>);

/// One line of a [`value_lines_svg`].
#[derive(Clone, Debug, PartialEq)]
pub struct ValueSeries {
    /// The line's name in the legend.
    pub label: String,
    /// Whether the line is drawn dashed, as a reference.
    pub dashed: bool,
    /// The points.
    pub points: Vec<ValuePoint>,
}

/// Values of any size against a quantity, both axes linear and fitted to
/// the points (and their intervals), one line per series, each labelled
/// at its last point: e.g. a training run's losses by step, or its
/// networks' ratings by generation.
pub fn value_lines_svg(
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[ValueSeries],
) -> String {
    let points = || series.iter().flat_map(|line| line.points.iter());
    let fitted = |values: Vec<f64>| {
        let (low, high) =
            span(values.into_iter().filter(|value| value.is_finite())).unwrap_or((0.0, 1.0));
        let pad = if high > low {
            0.0
        } else {
            0.5_f64.max(low.abs() * 0.1)
        };
        (low - pad, high + pad)
    };
    let (x_low, x_high) = fitted(points().map(|&(x, _, _)| x).collect());
    // A margin of a twentieth of the values' range above and below keeps
    // the highest and lowest markers and error bars off the frame.
    let margin = |(low, high): (f64, f64)| {
        let pad = (high - low) / 20.0;
        (low - pad, high + pad)
    };
    let (y_low, y_high) = margin(fitted(
        points()
            .flat_map(|&(_, y, interval)| {
                std::iter::once(y).chain(interval.into_iter().flat_map(|(a, b)| [a, b]))
            })
            .collect(),
    ));
    let x_of = |x: f64| LEFT + (x - x_low) / (x_high - x_low) * PLOT_WIDTH;
    let y_of = |y: f64| TOP + (y_high - y) / (y_high - y_low) * PLOT_HEIGHT;
    let mut svg = open_titled(title);
    for value in round_ticks(y_low, y_high) {
        horizontal_tick(&mut svg, y_of(value), value);
    }
    for value in round_ticks(x_low, x_high) {
        vertical_tick(&mut svg, x_of(value), value);
    }
    close_axes(&mut svg, x_label, y_label);
    let mut labels: Vec<(String, &str, f64)> = Vec::new();
    for (index, line) in series.iter().enumerate() {
        let colour = PALETTE[index % PALETTE.len()];
        let mut points = line.points.clone();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        let markers: Vec<Marker> = points
            .iter()
            .filter(|(x, y, _)| x.is_finite() && y.is_finite())
            .map(|&(x, y, interval)| Marker {
                x: x_of(x),
                y: y_of(y),
                interval: interval.map(|(low, high)| (y_of(high), y_of(low))),
                tooltip: format!(
                    "{} at {}: {}{}",
                    escape(&line.label),
                    readable(x),
                    readable(y),
                    interval.map_or(String::new(), |(low, high)| format!(
                        " [{}, {}]",
                        readable(low),
                        readable(high)
                    ))
                ),
            })
            .collect();
        draw_line(&mut svg, colour, &markers, line.dashed);
        if let Some(last) = markers.last() {
            labels.push((line.label.clone(), colour, last.y));
        }
    }
    end_labels(&mut svg, labels);
    svg
}

/// Vertical grid lines and labels at the powers of ten from `10^low` to
/// `10^high` on a logarithmic horizontal axis.
fn log_grid(svg: &mut String, low: f64, high: f64) {
    let mut exponent = low as i32;
    while f64::from(exponent) <= high {
        let x = LEFT + (f64::from(exponent) - low) / (high - low) * PLOT_WIDTH;
        vertical_tick(svg, x, 10u64.pow(exponent.max(0) as u32));
        exponent += 1;
    }
}

/// A horizontal grid line at height `y` with its label left of the axis.
fn horizontal_tick(svg: &mut String, y: f64, label: impl std::fmt::Display) {
    let _ = writeln!(
        svg,
        r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#e5e5e5"/>"##,
        LEFT + PLOT_WIDTH
    );
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{label}</text>"#,
        LEFT - 6.0,
        y + 4.0,
    );
}

/// A vertical grid line at `x` across the plot, with `label` below it.
fn vertical_tick(svg: &mut String, x: f64, label: impl std::fmt::Display) {
    let _ = writeln!(
        svg,
        r##"<line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{:.1}" stroke="#e5e5e5"/>"##,
        TOP + PLOT_HEIGHT
    );
    let _ = writeln!(
        svg,
        r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{label}</text>"#,
        TOP + PLOT_HEIGHT + 18.0
    );
}

/// The smallest and the largest of `values`; `None` when there are none.
fn span(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (low, high) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    low.is_finite().then_some((low, high))
}

/// The base-10 logarithm of a count on a logarithmic axis (0 counts as 1).
fn log_of(count: u64) -> f64 {
    (count.max(1) as f64).log10()
}

/// The exponents of the whole powers of ten around `counts`, at least one
/// decade apart; 10 to 100,000 (the budgets a plot is usually about) when
/// there are no counts yet.
fn decades(counts: impl Iterator<Item = u64>) -> (f64, f64) {
    let (low, high) = span(counts.map(log_of)).unwrap_or((1.0, 5.0));
    let low = low.floor();
    (low, high.ceil().max(low + 1.0))
}

/// One point of a line as drawn: where it stands, the top and bottom of its
/// error bar (none for a line without intervals), and its tooltip (escaped).
struct Marker {
    x: f64,
    y: f64,
    interval: Option<(f64, f64)>,
    tooltip: String,
}

impl Marker {
    /// The marker of `rate` at `x`, its 95% interval as the error bar;
    /// `y_of` places a rate on the vertical axis.
    fn of_rate(x: f64, rate: &WinRate, y_of: impl Fn(f64) -> f64, tooltip: String) -> Marker {
        Marker {
            x,
            y: y_of(rate.win_rate),
            interval: Some((y_of(rate.ci_high), y_of(rate.ci_low))),
            tooltip,
        }
    }
}

/// Draws a line in `colour`: the error bars, the line through the points
/// (dashed for a reference) when there are two or more, and the points
/// with their tooltips.
fn draw_line(svg: &mut String, colour: &str, markers: &[Marker], dashed: bool) {
    for marker in markers {
        if let Some((top, bottom)) = marker.interval {
            let x = marker.x;
            let _ = writeln!(
                svg,
                r#"<line x1="{x:.1}" y1="{top:.1}" x2="{x:.1}" y2="{bottom:.1}" stroke="{colour}"/>"#
            );
        }
    }
    if markers.len() > 1 {
        let path: Vec<String> = markers
            .iter()
            .map(|marker| format!("{:.1},{:.1}", marker.x, marker.y))
            .collect();
        let dash = if dashed {
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
    for marker in markers {
        let _ = writeln!(
            svg,
            r#"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{colour}"><title>{}</title></circle>"#,
            marker.x, marker.y, marker.tooltip
        );
    }
}

/// A value as a tooltip shows it: whole above 100 (ratings, seconds,
/// steps), to three significant digits below (losses, rates).
fn readable(value: f64) -> String {
    if value.abs() >= 100.0 || value == value.trunc() {
        format!("{value:.0}")
    } else {
        let decimals = (2 - value.abs().log10().floor() as i32).clamp(0, 6) as usize;
        let text = format!("{value:.decimals$}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The tooltip of a share (0 to 1) at a value of the horizontal axis.
fn at_value(label: &str, x: impl std::fmt::Display, share: f64) -> String {
    format!("{} at {x}: {:.1}%", escape(label), 100.0 * share)
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
    let (low, high) = decades(
        series
            .iter()
            .flat_map(|(_, points)| points.iter().map(|&(x, _)| x)),
    );
    let x_of = |x: u64| LEFT + (log_of(x) - low) / (high - low) * PLOT_WIDTH;
    let y_of = |share: f64| TOP + (1.0 - share.clamp(0.0, 1.0)) * PLOT_HEIGHT;
    let mut svg = open_plot(title);
    log_grid(&mut svg, low, high);
    close_axes(&mut svg, x_label, y_label);
    let mut labels: Vec<(String, &str, f64)> = Vec::new();
    for (index, (label, points)) in series.iter().enumerate() {
        let colour = PALETTE[index % PALETTE.len()];
        let mut points = points.clone();
        points.sort_by_key(|&(x, _)| x);
        let markers: Vec<Marker> = points
            .iter()
            .map(|&(x, share)| Marker {
                x: x_of(x),
                y: y_of(share),
                interval: None,
                tooltip: at_value(label, x, share),
            })
            .collect();
        draw_line(&mut svg, colour, &markers, false);
        if let Some(last) = markers.last() {
            labels.push((label.clone(), colour, last.y));
        }
    }
    end_labels(&mut svg, labels);
    svg
}

/// Starts a plot of win rates: the SVG element, a white background, the
/// title, and the horizontal grid with the win-rate scale (0 to 100%).
fn open_plot(title: &str) -> String {
    let mut svg = open_titled(title);
    for step in 0..=10 {
        let y = TOP + (1.0 - f64::from(step) / 10.0) * PLOT_HEIGHT;
        horizontal_tick(&mut svg, y, format_args!("{}%", step * 10));
    }
    svg
}

/// Starts a plot: the SVG element, a white background and the title.
fn open_titled(title: &str) -> String {
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="28" text-anchor="middle" font-size="15">{}</text>"#,
        LEFT + PLOT_WIDTH / 2.0,
        escape(title)
    );
    svg
}

/// Draws the plot's frame and the names of its two axes.
fn close_axes(svg: &mut String, x_label: &str, y_label: &str) {
    let _ = writeln!(
        svg,
        r#"<rect x="{LEFT}" y="{TOP}" width="{PLOT_WIDTH:.1}" height="{PLOT_HEIGHT:.1}" fill="none" stroke="black"/>"#
    );
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        LEFT + PLOT_WIDTH / 2.0,
        HEIGHT - 16.0,
        escape(x_label)
    );
    let _ = writeln!(
        svg,
        r#"<text transform="translate(18 {:.1}) rotate(-90)" text-anchor="middle">{}</text>"#,
        TOP + PLOT_HEIGHT / 2.0,
        escape(y_label)
    );
}

/// Writes each line's label beside the plot at the height of the line's last
/// point, spread so that no two labels overlap, and closes the SVG. A label
/// is its text, its colour and the height of its line.
fn end_labels(svg: &mut String, mut labels: Vec<(String, &str, f64)>) {
    labels.sort_by(|a, b| a.2.total_cmp(&b.2));
    let mut ys: Vec<f64> = labels.iter().map(|label| label.2 + 4.0).collect();
    for i in 1..ys.len() {
        ys[i] = ys[i].max(ys[i - 1] + LABEL_GAP);
    }
    let lowest = TOP + PLOT_HEIGHT + 4.0;
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
            LEFT + PLOT_WIDTH + 8.0,
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

    #[test]
    fn a_value_chart_fits_its_axes_to_the_points_and_their_intervals() {
        let series = vec![
            ValueSeries {
                label: "checkpoints".into(),
                dashed: false,
                points: vec![(0.0, -120.0, Some((-180.0, -60.0))), (4.0, 35.0, None)],
            },
            ValueSeries {
                label: "mcts".into(),
                dashed: true,
                points: vec![(0.0, 0.0, None), (4.0, 0.0, None)],
            },
        ];
        let svg = value_lines_svg("ratings", "generation", "Elo", &series);
        assert_eq!(svg.matches("<circle").count(), 4);
        assert_eq!(svg.matches("stroke-dasharray").count(), 1);
        // The vertical axis runs from the interval's lower end, -180, to
        // the highest value, 35, with a twentieth of that range to spare
        // at either end (so each lies 1/22 of the plot's height from its
        // edge), and round ticks between; the horizontal one runs 0 to 4,
        // edge to edge.
        let spare = PLOT_HEIGHT / 22.0;
        let bottom = format!(
            r#"x2="{LEFT:.1}" y2="{:.1}" stroke="{}""#,
            TOP + PLOT_HEIGHT - spare,
            PALETTE[0]
        );
        assert!(svg.contains(&bottom), "{svg}");
        let top = format!(r#"cx="{:.1}" cy="{:.1}""#, LEFT + PLOT_WIDTH, TOP + spare);
        assert!(svg.contains(&top), "{svg}");
        assert!(svg.contains("<title>checkpoints at 0: -120 [-180, -60]</title>"));
        assert!(svg.contains("<title>checkpoints at 4: 35</title>"));
        assert!(svg.contains(">-150<") && !svg.contains(">-200<"), "{svg}");
        assert!(svg.contains(">4<") && svg.contains(">0<"), "{svg}");
        assert!(value_lines_svg("t", "x", "y", &[]).contains("</svg>"));
    }
}
