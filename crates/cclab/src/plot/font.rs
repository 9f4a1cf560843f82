//! The embedded font: DejaVu Sans, so that text renders on machines without system fonts.

use plotters::style::{register_font, FontStyle};
use std::sync::Once;

/// The family every plot asks for; the SVG files name it too, so a browser substitutes its
/// own sans-serif font.
pub const FAMILY: &str = "sans-serif";

/// Registers DejaVu Sans (regular and bold) with plotters, once per process.
pub fn register() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for (style, bytes) in [(FontStyle::Normal, dejavu::sans::regular()), (FontStyle::Bold, dejavu::sans::bold())] {
            if register_font(FAMILY, style, bytes).is_err() {
                panic!("the embedded DejaVu Sans font does not parse");
            }
        }
    });
}
