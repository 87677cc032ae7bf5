//! The screen-reader voice of the widget: a polite live region that speaks each decision, but at
//! most once per [`GAP`] seconds; decisions in between are summed up in one sentence, counting
//! the whole quick batch (the press already spoken too). It also speaks what a press did that is
//! no decision: a refused send, a reset, a step through time.

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
    /// When the last decision was noted: a batch is decisions less than [`GAP`] apart (a
    /// sentence about something else, spoken meanwhile, does not make one run on).
    last_noted: f64,
    /// Decisions not spoken yet.
    unspoken: u32,
    /// Decisions of the batch (those less than [`GAP`] apart, spoken or not), and how many of
    /// them were admitted.
    requests: u32,
    admitted: u32,
    /// The latest decision's sentence, and whether it was a refusal (said after the batch's
    /// summary: otherwise a 429 in a run of quick clicks would never be heard, as a batch ends only
    /// after a pause long enough to refill a token).
    latest: String,
    latest_denied: bool,
    /// The level after the latest, and its decimals (see [`super::markup::level`]).
    level: (f64, usize),
    /// What else waits to be said, and whether it came before the decisions waiting (it is said
    /// in its place).
    message: String,
    message_first: bool,
    /// For a moment's message (see [`Announcer::say_moment`]), what came before the moment.
    moment: Option<&'static str>,
    /// Whether the last announcement ended in the marker (see [`Announcer::flush`]).
    marked: bool,
    /// What to say after the rest (see [`Announcer::news`]).
    news: &'static str,
}

impl Announcer {
    /// The visually hidden live region of the widget's markup under `parent`.
    pub fn attach(parent: &Element) -> Result<Announcer, JsValue> {
        Ok(Announcer {
            region: find(parent, ".bl-live")?,
            last_spoken: f64::NEG_INFINITY,
            last_noted: f64::NEG_INFINITY,
            unspoken: 0,
            requests: 0,
            admitted: 0,
            latest: String::new(),
            latest_denied: false,
            level: (0.0, 1),
            message: String::new(),
            message_first: false,
            moment: None,
            marked: false,
            news: "",
        })
    }

    /// Queues `requests` decisions taken at wall time `wall`, `admitted` of them admitted;
    /// `sentence` describes the latest, after which the bucket showed `level`.
    pub fn note(
        &mut self,
        requests: u32,
        admitted: u32,
        sentence: String,
        level: (f64, usize),
        wall: f64,
    ) {
        // A batch ends when no decision came for a whole gap (and all were said).
        if self.unspoken == 0 && wall - self.last_noted >= GAP {
            self.requests = 0;
            self.admitted = 0;
        }
        self.last_noted = wall;
        // A moment not said yet, queued after decisions not said yet either, told the last
        // response before this one: said after the batch, it would give that older response the
        // last word. A step's is dropped; a pause's ("Time paused: …", which a reader must hear)
        // is said first instead.
        match self.moment.take() {
            Some("") if !self.message_first => self.message.clear(),
            Some(_) => self.message_first = true,
            None => {}
        }
        self.unspoken = self.unspoken.saturating_add(requests);
        self.requests = self.requests.saturating_add(requests);
        self.admitted = self.admitted.saturating_add(admitted);
        self.latest = sentence;
        self.latest_denied = admitted < requests;
        self.level = level;
    }

    /// Queues `message`, in place of a message not said yet.
    pub fn say(&mut self, message: String) {
        self.message = message;
        self.message_first = self.unspoken == 0;
        self.moment = None;
    }

    /// Queues a moment reached in time (a pause, a step: the slider's `value`), after `before`
    /// ("Time paused:", or nothing): like [`Announcer::say`], but a decision noted after it must
    /// have the last word (see [`Announcer::note`]).
    pub fn say_moment(&mut self, before: &'static str, value: &str) {
        let mut sentence = before.to_owned();
        if !sentence.is_empty() {
            sentence.push(' ');
        }
        sentence.push_str(value);
        self.say(sentence);
        self.moment = Some(before);
    }

    /// Queues `news` to be said after whatever else is said next (a sentence queued later by
    /// [`Announcer::say`] does not replace it).
    pub fn news(&mut self, news: &'static str) {
        self.news = news;
    }

    /// Forgets a message not said yet: what it said no longer holds (a past moment's sentence
    /// once the diagram is live again).
    pub fn forget(&mut self) {
        self.message.clear();
        self.news = "";
    }

    /// After a reset: forgets what was not said yet and the batch (the reset made them moot),
    /// empties the region at once (it would go on holding what no longer is) and queues the
    /// reset's sentence, the region's `data-reset` filled with `values`.
    pub fn reset(&mut self, values: &[(&str, &str)]) {
        self.unspoken = 0;
        self.requests = 0;
        self.admitted = 0;
        self.news = "";
        text(&self.region, "");
        let template = self.region.get_attribute("data-reset").unwrap_or_default();
        self.say(fill(&template, values));
    }

    /// Speaks what is queued if the last announcement is at least [`GAP`] old.
    pub fn flush(&mut self, l: &Locale, wall: f64) {
        if !self.pending() || wall - self.last_spoken < GAP {
            return;
        }
        let mut sentence = if self.unspoken == 0 {
            String::new()
        } else if self.requests == 1 {
            std::mem::take(&mut self.latest)
        } else {
            let mut summary = fill(
                l.summary,
                &[
                    ("n", &uint(self.requests.into())),
                    ("a", &uint(self.admitted.into())),
                    ("d", &uint((self.requests - self.admitted).into())),
                    // The counter's level (3.9999… reads 4).
                    ("t", &l.number(self.level.0, self.level.1)),
                ],
            );
            if self.latest_denied {
                summary.push(' ');
                summary.push_str(&self.latest);
            }
            summary
        };
        let mut message = std::mem::take(&mut self.message);
        if self.message_first {
            std::mem::swap(&mut sentence, &mut message);
        }
        if !sentence.is_empty() && !message.is_empty() {
            sentence.push(' ');
        }
        sentence.push_str(&message);
        if !self.news.is_empty() {
            if !sentence.is_empty() {
                sentence.push(' ');
            }
            sentence.push_str(std::mem::take(&mut self.news));
        }
        // A screen reader speaks a live region when its text changes, so the same sentence twice
        // in a row (a second "Admitted: 4 tokens left.", a second refusal) would be silent. Every
        // other announcement ends in a no-break space, which no screen reader speaks, so each one
        // is a change. Chosen over emptying the region and refilling it a frame later: no timer
        // to own, to cancel on `free()` or to race the next announcement, and the text is in
        // place at once.
        self.marked = !self.marked;
        if self.marked {
            sentence.push('\u{a0}');
        }
        text(&self.region, &sentence);
        self.last_spoken = wall;
        self.unspoken = 0;
    }

    /// Whether something waits to be said.
    pub fn pending(&self) -> bool {
        self.unspoken > 0 || !self.message.is_empty() || !self.news.is_empty()
    }
}
