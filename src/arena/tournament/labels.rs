//! Agents' names in charts: a name short enough to sit beside a row or
//! above a column is written out; when any is longer, every agent is shown
//! by a short key (`[1]`, `[2]`, ...) and a legend under the chart gives
//! each key's full name, so that no label is cut off by the chart's edge.

use crate::core::escape_xml;
use std::fmt::Write;

/// The longest name written out beside a chart's rows and columns.
pub(crate) const CHART_NAME_CHARS: usize = 24;

/// The width of one character of the charts' 12-pixel sans-serif text, an
/// upper estimate for the characters of specs and names.
pub(crate) const CHAR_WIDTH: f64 = 7.5;

/// The height of one line of a legend.
const LEGEND_LINE: f64 = 18.0;

/// The agents' labels in a chart, and the legend that explains them when
/// they are keys.
pub(crate) struct ChartNames {
    /// One label per agent, in the order given.
    pub labels: Vec<String>,
    /// `[k] name` for each agent when the labels are keys; empty otherwise.
    legend: Vec<String>,
}

impl ChartNames {
    /// The labels of `names`: the names themselves if none is longer than
    /// [`CHART_NAME_CHARS`], else keys with a legend.
    pub fn of(names: &[&str]) -> ChartNames {
        if names
            .iter()
            .all(|name| name.chars().count() <= CHART_NAME_CHARS)
        {
            return ChartNames {
                labels: names.iter().map(|name| name.to_string()).collect(),
                legend: Vec::new(),
            };
        }
        let keys: Vec<String> = (1..=names.len()).map(|k| format!("[{k}]")).collect();
        ChartNames {
            legend: keys
                .iter()
                .zip(names)
                .map(|(key, name)| format!("{key} {name}"))
                .collect(),
            labels: keys,
        }
    }

    /// The width of the longest label, in pixels.
    pub fn label_width(&self) -> f64 {
        text_width(self.labels.iter().map(String::as_str))
    }

    /// The width and height the legend takes (nothing without one).
    pub fn legend_size(&self) -> (f64, f64) {
        if self.legend.is_empty() {
            return (0.0, 0.0);
        }
        (
            text_width(self.legend.iter().map(String::as_str)) + 20.0,
            LEGEND_LINE * self.legend.len() as f64 + 10.0,
        )
    }

    /// The legend as SVG text, its first line's top at `top`.
    pub fn legend_svg(&self, top: f64) -> String {
        let mut svg = String::new();
        for (line, entry) in self.legend.iter().enumerate() {
            let _ = writeln!(
                svg,
                "<text x=\"10\" y=\"{:.1}\" dominant-baseline=\"central\">{}</text>",
                top + LEGEND_LINE * (line as f64 + 0.5),
                escape_xml(entry)
            );
        }
        svg
    }
}

/// The width of the longest of `texts`, in pixels.
fn text_width<'a>(texts: impl Iterator<Item = &'a str>) -> f64 {
    texts.map(|text| text.chars().count()).max().unwrap_or(0) as f64 * CHAR_WIDTH
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Where a text of a chart reaches, `(left, top, right, bottom)`, and
    /// the text.
    type Extent = (f64, f64, f64, f64, String);

    /// Every text element of `svg` with where it reaches, in the chart's
    /// coordinates, from its position, anchor, rotation (`rotate(-45)`
    /// only) and length at [`CHAR_WIDTH`] a character; and the chart's
    /// width and height.
    fn text_extents(svg: &str) -> (Vec<Extent>, f64, f64) {
        let number = |tag: &str, name: &str| -> Option<f64> {
            let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
            let end = start + tag[start..].find('"')?;
            tag[start..end].parse().ok()
        };
        let open = &svg[..svg.find('>').unwrap()];
        let (width, height) = (
            number(open, "width").unwrap(),
            number(open, "height").unwrap(),
        );
        let mut extents = Vec::new();
        for piece in svg.split("<text").skip(1) {
            let close = piece.find('>').unwrap();
            let (tag, rest) = (&piece[..close], &piece[close + 1..]);
            let text = &rest[..rest.find("</text>").unwrap()];
            let length = text
                .replace("&amp;", "&")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .chars()
                .count() as f64
                * CHAR_WIDTH;
            let (x, y, rotated) = match tag.find("translate(") {
                Some(at) => {
                    let inside = &tag[at + 10..];
                    let inside = &inside[..inside.find(')').unwrap()];
                    let (x, y) = inside.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap(), true)
                }
                None => (number(tag, "x").unwrap(), number(tag, "y").unwrap(), false),
            };
            let extent = if rotated {
                let reach = length * std::f64::consts::FRAC_1_SQRT_2;
                (x, y - reach - 8.0, x + reach + 8.0, y)
            } else if tag.contains("text-anchor=\"end\"") {
                (x - length, y - 8.0, x, y + 8.0)
            } else if tag.contains("text-anchor=\"middle\"") {
                (x - length / 2.0, y - 8.0, x + length / 2.0, y + 8.0)
            } else {
                (x, y - 8.0, x + length, y + 8.0)
            };
            extents.push((extent.0, extent.1, extent.2, extent.3, text.to_string()));
        }
        (extents, width, height)
    }

    /// Asserts that every text of `svg` lies within the chart.
    pub(crate) fn assert_no_text_is_cut_off(svg: &str) {
        let (extents, width, height) = text_extents(svg);
        for (left, top, right, bottom, text) in extents {
            assert!(
                left >= 0.0 && top >= 0.0 && right <= width && bottom <= height,
                "`{text}` reaches ({left:.0}, {top:.0})-({right:.0}, {bottom:.0}), \
                 outside the chart's {width} x {height}"
            );
        }
    }

    #[test]
    fn long_names_become_keys_with_a_legend() {
        let short = ChartNames::of(&["greedy", "alphabeta:depth=3"]);
        assert_eq!(short.labels, ["greedy", "alphabeta:depth=3"]);
        assert_eq!(short.legend_size(), (0.0, 0.0));
        let long_name = "mcts:iters=300,expand=all,minimax=1,playout=0,c=0,pick=value";
        let long = ChartNames::of(&["greedy", long_name]);
        assert_eq!(long.labels, ["[1]", "[2]"]);
        let legend = long.legend_svg(0.0);
        assert!(legend.contains(&format!("[2] {long_name}")), "{legend}");
        assert!(long.legend_size().0 > long_name.len() as f64 * CHAR_WIDTH);
    }
}
