//! The Markdown of the run's reports as HTML: the little Markdown they
//! write (headings, paragraphs, lists, tables and `code`), so that the page
//! shows the very report `report.md` holds.

use crate::core::escape_xml;

/// `markdown` as HTML. Headings move down one level (`#` becomes `<h2>`),
/// the page's own title being the `<h1>`.
pub fn markdown_html(markdown: &str) -> String {
    let mut html = String::new();
    let lines: Vec<&str> = markdown.lines().collect();
    let mut at = 0;
    while at < lines.len() {
        let line = lines[at];
        if line.trim().is_empty() {
            at += 1;
        } else if let Some((level, title)) = heading(line) {
            html.push_str(&format!("<h{level}>{}</h{level}>\n", inline(title)));
            at += 1;
        } else if line.starts_with('|') {
            let end = block_end(&lines, at, |line| line.starts_with('|'));
            html.push_str(&table(&lines[at..end]));
            at = end;
        } else if line.starts_with("- ") {
            let end = block_end(&lines, at, |line| line.starts_with("- "));
            html.push_str("<ul>\n");
            for item in &lines[at..end] {
                html.push_str(&format!("<li>{}</li>\n", inline(&item[2..])));
            }
            html.push_str("</ul>\n");
            at = end;
        } else {
            let end = block_end(&lines, at, |line| {
                !line.trim().is_empty()
                    && heading(line).is_none()
                    && !line.starts_with('|')
                    && !line.starts_with("- ")
            });
            let text: Vec<String> = lines[at..end].iter().map(|line| inline(line)).collect();
            html.push_str(&format!("<p>{}</p>\n", text.join("\n")));
            at = end;
        }
    }
    html
}

/// The level (one more than the number of `#`s) and text of a heading line.
fn heading(line: &str) -> Option<(usize, &str)> {
    let hashes = line.chars().take_while(|&c| c == '#').count();
    let title = line[hashes..].strip_prefix(' ')?;
    (1..=5).contains(&hashes).then_some((hashes + 1, title))
}

/// The end of the block of lines from `start` that `belongs` holds for.
fn block_end(lines: &[&str], start: usize, belongs: impl Fn(&str) -> bool) -> usize {
    start
        + lines[start..]
            .iter()
            .take_while(|line| belongs(line))
            .count()
}

/// A Markdown table (header, alignment row, rows) as an HTML table.
fn table(lines: &[&str]) -> String {
    let cells = |line: &str| -> Vec<String> {
        line.trim()
            .trim_start_matches('|')
            .trim_end_matches('|')
            .split('|')
            .map(|cell| cell.trim().to_string())
            .collect()
    };
    let header = cells(lines[0]);
    let numeric: Vec<bool> = lines
        .get(1)
        .map(|line| cells(line).iter().map(|cell| cell.ends_with(':')).collect())
        .unwrap_or_default();
    let mut html = String::from("<table class=\"report\">\n<thead><tr>");
    for cell in &header {
        html.push_str(&format!("<th>{}</th>", inline(cell)));
    }
    html.push_str("</tr></thead>\n<tbody>\n");
    for line in lines.iter().skip(2) {
        html.push_str("<tr>");
        for (column, cell) in cells(line).iter().enumerate() {
            let class = match numeric.get(column) {
                Some(true) => " class=\"num\"",
                _ => "",
            };
            html.push_str(&format!("<td{class}>{}</td>", inline(cell)));
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</tbody></table>\n");
    html
}

/// A line's text escaped, with `code` spans.
fn inline(text: &str) -> String {
    text.split('`')
        .enumerate()
        .map(|(part, piece)| match part % 2 {
            1 => format!("<code>{}</code>", escape_xml(piece)),
            _ => escape_xml(piece),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reports_markdown_becomes_html() {
        let html = markdown_html(
            "# thud tournament\n\nTwo `a<b` agents.\nSecond line.\n\n| agent | games |\n| --- | ---: |\n| `x` | 4 |\n\n## All games\n\n- one\n- two & three\n",
        );
        assert_eq!(
            html,
            "<h2>thud tournament</h2>\n\
             <p>Two <code>a&lt;b</code> agents.\nSecond line.</p>\n\
             <table class=\"report\">\n<thead><tr><th>agent</th><th>games</th></tr></thead>\n\
             <tbody>\n<tr><td><code>x</code></td><td class=\"num\">4</td></tr>\n</tbody></table>\n\
             <h3>All games</h3>\n<ul>\n<li>one</li>\n<li>two &amp; three</li>\n</ul>\n"
        );
    }
}
