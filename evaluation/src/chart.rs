//! What the three SVG charts share — the tournament's ratings ([`Report::to_svg`]), the
//! ladder's Elo against time ([`LadderReport::to_svg`]) and the game-length histogram
//! ([`length_histogram_svg`]): the document's head and white background, round axis
//! steps, and text escaped for SVG. Each chart draws its own axes and marks.
//!
//! [`Report::to_svg`]: crate::report::Report::to_svg
//! [`LadderReport::to_svg`]: crate::ladder::LadderReport::to_svg
//! [`length_histogram_svg`]: crate::analysis::length_histogram_svg

use core::fmt::Write as _;

/// Starts a self-contained SVG document of `width` × `height` pixels (whole pixels) on a
/// white background, 12 px sans-serif.
pub(crate) fn begin(o: &mut String, width: f64, height: f64) {
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(o, r#"<rect width="100%" height="100%" fill="white"/>"#);
}

/// Ends the document [`begin`] started.
pub(crate) fn end(o: &mut String) {
    o.push_str("</svg>\n");
}

/// The smallest round step (1, 2 or 5 times a power of ten) of at least `raw` (> 0): an
/// axis of span `s` cut into about `n` parts takes `nice_step(s / n)`.
pub(crate) fn nice_step(raw: f64) -> f64 {
    let mag = 10f64.powf(raw.max(1e-9).log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * mag)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * mag)
}

/// `text` escaped for SVG text and attribute values.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_steps_escaping_and_the_document() {
        assert_eq!(nice_step(13.0), 20.0);
        assert_eq!(nice_step(0.3), 0.5);
        assert_eq!(nice_step(50.0), 50.0);
        assert_eq!(nice_step(1.0), 1.0);
        assert_eq!(nice_step(101.0), 200.0);
        assert_eq!(nice_step(600.0), 1000.0);
        assert_eq!(escape("a<b>&\""), "a&lt;b&gt;&amp;&quot;");
        let mut o = String::new();
        begin(&mut o, 537.5, 400.0);
        end(&mut o);
        assert!(o.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="538" height="400" viewBox="0 0 538 400""#), "{o}");
        assert!(o.ends_with("fill=\"white\"/>\n</svg>\n"), "{o}");
    }
}
