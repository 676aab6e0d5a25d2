//! The HTML page: the report, the charts and the game browser in one file
//! that needs nothing else (its styles, script and drawings are inline).

use super::frames::Layouts;
use crate::core::escape_xml;
use serde_json::{Value, json};

/// The game browser's script.
const VIEWER_JS: &str = include_str!("viewer.js");

/// The page's styles. A board's frame may bring a `<style>` of its own,
/// which applies to the whole page: the charts' texts keep their font by a
/// more specific rule.
const STYLE: &str = "
body{font-family:sans-serif;margin:1em 2em;color:#222}
h1{font-size:1.5em}h2{font-size:1.3em;margin-top:1.5em}h3{font-size:1.1em}
nav a{margin-right:1em}
table{border-collapse:collapse;font-size:0.9em}
th,td{border:1px solid #ccc;padding:2px 6px;text-align:left}
td.num{text-align:right}
code{background:#f3f3f3;padding:0 2px}
figure{display:inline-block;margin:0 2em 1em 0;vertical-align:top}
figure svg text{font-family:sans-serif;white-space:normal}
figcaption{font-weight:bold;margin-bottom:4px}
.filters select{margin-right:1em}
.browser{display:flex;gap:2em;align-items:flex-start;flex-wrap:wrap}
.list{max-height:80vh;overflow:auto}
.list table{table-layout:fixed}
#game-list tr{cursor:pointer}
#game-list tr:hover{background:#eef}
#game-list tr.selected{background:#cde}
.controls button{min-width:3em}
#board-box{margin:0.5em 0}
#position-text{width:100%;max-width:40em;font-family:monospace}
#move-list{max-height:40vh;overflow:auto;font-family:monospace;position:relative}
#move-list li{cursor:pointer}
#move-list li.current{background:#cde}
.mark-move{fill:#ffc800;fill-opacity:0.35;stroke:#e0a000;stroke-width:2}
.mark-capture{fill:#ff0000;fill-opacity:0.2;stroke:#d00000;stroke-width:3}
";

/// The games of a page's browser.
pub struct Browser {
    /// What a game is called in the list and its heading: `game` in a
    /// tournament's page, `deal` in a win-rate run's.
    pub label: &'static str,
    /// The headings of the agents' columns: the sides' names, seat 0
    /// first, or one column for a team's policy.
    pub columns: Vec<String>,
    /// The results' names, by their number in `rows`.
    pub results: Vec<String>,
    /// The agents' names; each game names its agents by their place here.
    pub agents: Vec<String>,
    /// The end reasons; each game names its reason by its place here.
    pub reasons: Vec<String>,
    /// The number of players, for the viewer of hidden slots.
    pub players: usize,
    /// Per game `[key, agent of seat 0, agent of seat 1, result, reason,
    /// plies, number]`: `key` tells the games apart, `number` is what the
    /// list shows (a tournament's game index, a win-rate run's deal).
    pub rows: Vec<[usize; 7]>,
    /// The layouts the games' pictures use.
    pub layouts: Layouts,
    /// Per game (in the order of `rows`) its packed data
    /// ([`super::encode::pack`] of [`super::GameFrames::json`]).
    pub packed: Vec<String>,
    /// What the list leaves out, when it does not hold every game.
    pub note: Option<String>,
}

/// The ids of the page's own elements. A board's drawing shares the page's
/// document, so a symbol of the same id would be found in place of the
/// element (or the element in place of the symbol).
pub const PAGE_IDS: &[&str] = &[
    "board",
    "board-box",
    "charts",
    "copy-position",
    "filter-agent",
    "filter-reason",
    "filter-result",
    "filter-side",
    "first",
    "game-count",
    "game-data",
    "game-list",
    "game-title",
    "games",
    "last",
    "layouts",
    "list-next",
    "list-prev",
    "list-range",
    "move-list",
    "next",
    "ply",
    "position-text",
    "prev",
    "report",
    "side-box",
    "view-data",
    "viewer",
    "viewer-box",
];

/// Refuses layouts whose drawings define an id the page uses itself.
///
/// # Errors
/// Names the id.
pub fn check_layout_ids(layouts: &Layouts) -> Result<(), String> {
    for picture in &layouts.pictures {
        for id in PAGE_IDS {
            if picture.frame.contains(&format!("id=\"{id}\"")) {
                return Err(format!(
                    "the board's drawing defines the id `{id}`, which the page uses for one of its own elements: the game's picture must name that symbol otherwise"
                ));
            }
        }
    }
    Ok(())
}

/// The place of `name` in `names`, added at the end if it is new.
pub fn place_of(names: &mut Vec<String>, name: &str) -> usize {
    match names.iter().position(|known| known == name) {
        Some(at) => at,
        None => {
            names.push(name.to_string());
            names.len() - 1
        }
    }
}

/// What a page shows.
pub struct Page {
    /// The page's title.
    pub title: String,
    /// A line under the title: where the run is.
    pub source: String,
    /// The report, as HTML.
    pub report: String,
    /// The charts: a caption and an SVG drawing each.
    pub charts: Vec<(String, String)>,
    /// The games, if the run has any.
    pub browser: Option<Browser>,
    /// The version of a page served by `norn view --watch`, which the page
    /// polls to reload itself when it changes.
    pub version: Option<u64>,
}

/// `value` as JSON that may stand inside a `<script>` element: every `<`
/// (which JSON writes only inside strings) escaped, so that no `</script>`
/// or `<!--` appears.
fn script_json(value: &Value) -> String {
    value.to_string().replace('<', "\\u003c")
}

impl Page {
    /// The page as one HTML document. Its icon is empty, so that a browser
    /// asks a server that serves the page (`--watch`) for nothing else.
    ///
    /// The page is taken, and its games' packed data moved into the
    /// document one game at a time into room reserved for the rest of it:
    /// a page of long games is mostly that data, which is then held about
    /// twice at most, not once as packed games, once as the browser's
    /// section and once more as the document, each grown by doubling.
    pub fn html(self) -> String {
        let mut html = format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <link rel=\"icon\" href=\"data:,\">\n<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
             <h1>{title}</h1>\n<p class=\"source\">{source}</p>\n<nav><a href=\"#report\">report</a>",
            title = escape_xml(&self.title),
            source = escape_xml(&self.source),
        );
        if !self.charts.is_empty() {
            html.push_str("<a href=\"#charts\">charts</a>");
        }
        if self.browser.is_some() {
            html.push_str("<a href=\"#games\">games</a>");
        }
        html.push_str("</nav>\n<section id=\"report\">\n");
        html.push_str(&self.report);
        html.push_str("</section>\n");
        if !self.charts.is_empty() {
            html.push_str("<section id=\"charts\">\n<h2>Charts</h2>\n");
            for (caption, svg) in &self.charts {
                html.push_str(&format!(
                    "<figure><figcaption>{}</figcaption>\n{svg}</figure>\n",
                    escape_xml(caption)
                ));
            }
            html.push_str("</section>\n");
        }
        if let Some(browser) = self.browser {
            push_browser(&mut html, browser, self.version);
        }
        html.push_str("</body>\n</html>\n");
        html
    }
}

/// Appends the games' section of a page to `html`, its packed games moved
/// in one at a time.
fn push_browser(html: &mut String, browser: Browser, version: Option<u64>) {
    let data = json!({
        "label": browser.label,
        "columns": browser.columns,
        "results": browser.results,
        "agents": browser.agents,
        "reasons": browser.reasons,
        "players": browser.players,
        "version": version,
        "games": browser.rows,
    });
    html.push_str("<section id=\"games\">\n<h2>Games</h2>\n");
    if let Some(note) = &browser.note {
        html.push_str(&format!("<p class=\"note\">{}</p>\n", escape_xml(note)));
    }
    html.push_str(
        "<div class=\"filters\">\
         <label>agent <select id=\"filter-agent\"></select></label>\
         <label id=\"side-box\">side <select id=\"filter-side\"></select></label>\
         <label>result <select id=\"filter-result\"></select></label>\
         <label>end <select id=\"filter-reason\"></select></label>\
         <span id=\"game-count\"></span> <button id=\"list-prev\" hidden>previous games</button>\
         <button id=\"list-next\" hidden>next games</button> <span id=\"list-range\"></span></div>\n<div class=\"browser\">\n\
         <div class=\"list\"><table><thead><tr>",
    );
    html.push_str(&format!("<th>{}</th>", browser.label));
    for side in &browser.columns {
        html.push_str(&format!("<th>{}</th>", escape_xml(side)));
    }
    html.push_str(
        "<th>result</th><th>end</th><th>plies</th></tr></thead>\
         <tbody id=\"game-list\"></tbody></table></div>\n\
         <div class=\"game\"><h3 id=\"game-title\"></h3>\n<div class=\"controls\">\
         <button id=\"first\" title=\"first (Home)\">|&lt;</button>\
         <button id=\"prev\" title=\"previous (left arrow)\">&lt;</button>\
         <button id=\"next\" title=\"next (right arrow)\">&gt;</button>\
         <button id=\"last\" title=\"last (End)\">&gt;|</button> \
         ply <span id=\"ply\">0</span> \
         <label id=\"viewer-box\" hidden>as seen by <select id=\"viewer\"></select></label></div>\n\
         <div id=\"board-box\"><svg id=\"board\"></svg></div>\n\
         <div><textarea id=\"position-text\" readonly rows=\"2\"></textarea> \
         <button id=\"copy-position\">copy</button></div>\n\
         <ol id=\"move-list\"></ol></div>\n</div>\n</section>\n",
    );
    let scripts = format!(
        "<script type=\"application/json\" id=\"view-data\">{}</script>\n\
         <script type=\"application/json\" id=\"layouts\">{}</script>\n\
         <script type=\"text/plain\" id=\"game-data\">\n",
        script_json(&data),
        script_json(&browser.layouts.json())
    );
    let packed_bytes: usize = browser.packed.iter().map(|game| game.len() + 1).sum();
    // Exactly the room the rest takes (the closing tags' few bytes
    // rounded up), so the document is never copied to grow.
    html.reserve_exact(scripts.len() + packed_bytes + VIEWER_JS.len() + 256);
    html.push_str(&scripts);
    for game in browser.packed {
        html.push_str(&game);
        html.push('\n');
    }
    html.push_str("</script>\n<script>\n");
    html.push_str(VIEWER_JS);
    html.push_str("</script>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_of_the_page_is_listed_and_a_drawing_may_not_take_one() {
        let mut layouts = Layouts::default();
        let page = Page {
            title: "t".into(),
            source: "s".into(),
            report: String::new(),
            charts: vec![("c".into(), "<svg></svg>".into())],
            browser: Some(Browser {
                label: "game",
                columns: vec!["a".into(), "b".into()],
                results: vec!["a won".into()],
                agents: vec![],
                reasons: vec![],
                players: 2,
                rows: vec![],
                layouts: Layouts::default(),
                packed: vec![],
                note: Some("the first games".into()),
            }),
            version: None,
        }
        .html();
        let mut ids: Vec<&str> = page
            .match_indices("id=\"")
            .map(|(at, _)| {
                let rest = &page[at + 4..];
                &rest[..rest.find('"').unwrap()]
            })
            .collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids, PAGE_IDS);
        let mut picture = crate::core::Picture::of_text("x");
        assert_eq!(check_layout_ids(&layouts), Ok(()));
        picture.frame = "<defs><symbol id=\"next\"/></defs>".into();
        layouts.find_or_add(&picture);
        assert!(check_layout_ids(&layouts).unwrap_err().contains("`next`"));
    }

    #[test]
    fn json_in_a_script_cannot_close_it() {
        let text = script_json(&json!({"frame": "</script><!--"}));
        assert!(!text.contains('<'), "{text}");
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back["frame"], "</script><!--");
    }
}
