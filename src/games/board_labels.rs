//! The coordinates written around the square boards' pictures.

use std::fmt::Write;

/// Writes `labels` (each a text and the point it is centred on) in one
/// group of SVG text of the given size, in the boards' label colour.
pub(crate) fn write_labels(
    svg: &mut String,
    font_size: u32,
    labels: impl IntoIterator<Item = (String, f32, f32)>,
) {
    // Writing to a String cannot fail.
    let _ = writeln!(
        svg,
        "<g font-size=\"{font_size}\" fill=\"#5a4a30\" text-anchor=\"middle\" \
         dominant-baseline=\"central\">"
    );
    for (text, x, y) in labels {
        let _ = writeln!(svg, "<text x=\"{x}\" y=\"{y}\">{text}</text>");
    }
    svg.push_str("</g>");
}
