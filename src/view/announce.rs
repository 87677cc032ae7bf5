//! The screen-reader voice of the widget: a polite live region that speaks each decision, but at
//! most once per [`GAP`] seconds; decisions in between are summed up in one sentence.

use super::dom::{find, text};
use super::locale::{fill, Locale};
use crate::limiter::number::uint;
use wasm_bindgen::JsValue;
use web_sys::Element;

/// Wall seconds between two announcements.
pub const GAP: f64 = 1.5;

/// The live region and what it has not said yet.
pub struct Announcer {
    region: Element,
    last_spoken: f64,
    requests: u32,
    admitted: u32,
    latest: String,
    tokens: f64,
}

impl Announcer {
    /// The visually hidden live region of the widget's markup under `parent`.
    pub fn attach(parent: &Element) -> Result<Announcer, JsValue> {
        Ok(Announcer {
            region: find(parent, ".bl-live")?,
            last_spoken: f64::NEG_INFINITY,
            requests: 0,
            admitted: 0,
            latest: String::new(),
            tokens: 0.0,
        })
    }

    /// Queues `requests` decisions, `admitted` of them admitted; `sentence` describes the latest,
    /// after which the bucket held `tokens`.
    pub fn note(&mut self, requests: u32, admitted: u32, sentence: String, tokens: f64) {
        self.requests = self.requests.saturating_add(requests);
        self.admitted = self.admitted.saturating_add(admitted);
        self.latest = sentence;
        self.tokens = tokens;
    }

    /// Speaks what is queued if the last announcement is at least [`GAP`] old.
    pub fn flush(&mut self, l: &Locale, wall: f64) {
        if self.requests == 0 || wall - self.last_spoken < GAP {
            return;
        }
        let sentence = if self.requests == 1 {
            std::mem::take(&mut self.latest)
        } else {
            fill(
                l.summary,
                &[
                    ("n", &uint(self.requests.into())),
                    ("a", &uint(self.admitted.into())),
                    ("d", &uint((self.requests - self.admitted).into())),
                    // Floored to a tenth with slack, like the counter (3.9999… reads 4).
                    (
                        "t",
                        &l.number((self.tokens * 10.0 + 1e-6).floor() / 10.0, 1),
                    ),
                ],
            )
        };
        text(&self.region, &sentence);
        self.last_spoken = wall;
        self.requests = 0;
        self.admitted = 0;
    }

    /// Whether something waits to be said.
    pub fn pending(&self) -> bool {
        self.requests > 0
    }
}
