//! What happened recently, for the timeline: decisions and reconfigurations, and the token level
//! line they imply (rising at `r`, flat at `B`, dropping by each admitted cost).

use super::bucket::{BucketConfig, Decision};

/// Events held before a new one prunes what is older than the span: 50 requests/s, the most
/// automatic traffic sends, fill a 20 s span with about 1,000.
const PRUNE_FROM: usize = 4096;

/// What an [`Event`] records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Admitted,
    Denied,
    /// The bucket's capacity or rate changed.
    Reconfigured,
}

/// One moment on the timeline, with the bucket's state right after it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Event {
    pub at: f64,
    pub kind: Kind,
    /// Tokens just before the event (after refill).
    pub before: f64,
    /// Tokens right after it.
    pub after: f64,
    /// Capacity and rate in force from this event on.
    pub capacity: f64,
    pub refill_rate: f64,
}

/// The events of the last `span` seconds, plus one older event that anchors the level line.
#[derive(Debug, Clone)]
pub struct History {
    span: f64,
    anchor: Event,
    /// Oldest first (a plain `Vec`: pruning moves the few kept, and the module stays smaller).
    events: Vec<Event>,
    revision: u64,
}

impl History {
    /// An empty history for a bucket that holds `tokens` at `at`, keeping `span` seconds.
    pub fn new(config: &BucketConfig, tokens: f64, at: f64, span: f64) -> Self {
        History {
            span,
            anchor: Self::start(config, tokens, at),
            events: Vec::new(),
            revision: 0,
        }
    }

    /// Empties the history for a bucket that holds `tokens` at `at` (a reset), keeping `span`
    /// seconds from now on. Unlike a new history, it goes on counting revisions.
    pub fn restart(&mut self, config: &BucketConfig, tokens: f64, at: f64, span: f64) {
        self.span = span;
        self.anchor = Self::start(config, tokens, at);
        self.events.clear();
        self.revision += 1;
    }

    fn start(config: &BucketConfig, tokens: f64, at: f64) -> Event {
        Event {
            at,
            kind: Kind::Reconfigured,
            before: tokens,
            after: tokens,
            capacity: config.capacity(),
            refill_rate: config.refill_rate(),
        }
    }

    /// Changes whenever this history does (a new event, old ones pruned, a restart), so a view
    /// can redraw only then. Counted per history: a view keeps one history for its life.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Records a decision taken at `at` by a bucket configured by `config`.
    pub fn record(&mut self, at: f64, config: &BucketConfig, decision: &Decision) {
        let before = self.level_at(at);
        let kind = if decision.is_admitted() {
            Kind::Admitted
        } else {
            Kind::Denied
        };
        self.push(at, kind, before, decision.tokens, config);
    }

    /// Records a change of configuration at `at`, after which the bucket holds `tokens`.
    pub fn reconfigure(&mut self, at: f64, config: &BucketConfig, tokens: f64) {
        let before = self.level_at(at);
        self.push(at, Kind::Reconfigured, before, tokens, config);
    }

    fn push(&mut self, at: f64, kind: Kind, before: f64, after: f64, config: &BucketConfig) {
        self.revision += 1;
        // Traffic decided over a long stretch at once (a tab hidden for an hour, a replay from
        // the start) is pruned as it goes, so the events held stay those of about a span.
        if self.events.len() >= PRUNE_FROM {
            self.prune(at);
        }
        self.events.push(Event {
            at,
            kind,
            before,
            after,
            capacity: config.capacity(),
            refill_rate: config.refill_rate(),
        });
    }

    /// Forgets events older than `now − span`, keeping the newest of them as the anchor.
    pub fn prune(&mut self, now: f64) {
        let old = self.events.partition_point(|e| e.at < now - self.span);
        if old > 0 {
            self.revision += old as u64;
            self.anchor = self.events.drain(..old).next_back().unwrap_or(self.anchor);
        }
    }

    /// Events inside the kept span, oldest first.
    pub fn events(&self) -> impl Iterator<Item = &Event> {
        self.events.iter()
    }

    /// The newest event inside the kept span.
    pub fn latest(&self) -> Option<&Event> {
        self.events.last()
    }

    /// The token level as a polyline from the anchor up to `now`: `(time, tokens)` points,
    /// with a corner where the refill reaches the capacity.
    pub fn level_line(&self, now: f64) -> Vec<(f64, f64)> {
        let mut points = vec![(self.anchor.at, self.anchor.after)];
        let mut from = &self.anchor;
        for event in self.events.iter().filter(|e| e.at <= now) {
            rise(&mut points, from, event.at);
            points.push((event.at, event.after));
            from = event;
        }
        rise(&mut points, from, now);
        points
    }

    /// Level just before `at`, from the latest event not after it.
    fn level_at(&self, at: f64) -> f64 {
        let last = self
            .events
            .iter()
            .rev()
            .find(|e| e.at <= at)
            .unwrap_or(&self.anchor);
        refill(last, at)
    }
}

/// Tokens at `t` after `event`, refilling under the config it left in force.
fn refill(event: &Event, t: f64) -> f64 {
    let elapsed = (t - event.at).max(0.0);
    event
        .capacity
        .min(event.after + elapsed * event.refill_rate)
}

/// Appends the refill from `event` up to `t`: a corner where it reaches the capacity, then the
/// point at `t`.
fn rise(points: &mut Vec<(f64, f64)>, event: &Event, t: f64) {
    if t <= event.at {
        return;
    }
    if event.refill_rate > 0.0 && event.after < event.capacity {
        let full_at = event.at + (event.capacity - event.after) / event.refill_rate;
        if full_at < t {
            points.push((full_at, event.capacity));
        }
    }
    points.push((t, refill(event, t)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limiter::TokenBucket;

    #[test]
    fn level_line_rises_caps_and_drops() {
        let config = BucketConfig::new(2.0, 1.0).unwrap();
        let mut bucket = TokenBucket::started_at(config, 0.0).unwrap();
        let mut history = History::new(&config, 2.0, 0.0, 20.0);
        for at in [1.0, 1.0, 1.0] {
            let d = bucket.try_acquire(1.0, at).unwrap();
            history.record(at, &config, &d);
        }
        let kinds: Vec<Kind> = history.events().map(|e| e.kind).collect();
        assert_eq!(kinds, [Kind::Admitted, Kind::Admitted, Kind::Denied]);
        assert_eq!(
            history.level_line(4.0),
            vec![
                (0.0, 2.0),
                (1.0, 2.0),
                (1.0, 1.0),
                (1.0, 0.0),
                (1.0, 0.0),
                (3.0, 2.0),
                (4.0, 2.0)
            ]
        );
    }

    #[test]
    fn a_long_stretch_recorded_at_once_holds_about_a_span_not_every_event() {
        // An hour at 50 requests/s, with no prune between (a tab hidden that long): 180,000
        // events, of which a span's worth is kept once more than PRUNE_FROM are held.
        let config = BucketConfig::new(5.0, 1.0).unwrap();
        let mut bucket = TokenBucket::started_at(config, 0.0).unwrap();
        let mut history = History::new(&config, 5.0, 0.0, 20.0);
        for i in 0..180_000 {
            let at = f64::from(i) / 50.0;
            let d = bucket.try_acquire(1.0, at).unwrap();
            history.record(at, &config, &d);
            assert!(
                history.events.len() <= PRUNE_FROM,
                "{} at {at}",
                history.events.len()
            );
        }
        // The newest span is all there, and the level line starts from the anchor before it.
        let last = 179_999.0 / 50.0;
        assert!(history.events().next().unwrap().at <= last - 20.0);
        assert!(history.events().filter(|e| e.at >= last - 20.0).count() >= 1000);
    }

    #[test]
    fn prune_keeps_the_span_and_an_anchor() {
        let config = BucketConfig::new(5.0, 1.0).unwrap();
        let mut bucket = TokenBucket::started_at(config, 0.0).unwrap();
        let mut history = History::new(&config, 5.0, 0.0, 10.0);
        for at in [1.0, 2.0, 15.0] {
            let d = bucket.try_acquire(5.0, at).unwrap();
            history.record(at, &config, &d);
        }
        history.prune(15.0);
        assert_eq!(history.events().count(), 1, "only t = 15 is within 10 s");
        // The denial at t = 2 found 1 token and left it: the line starts there.
        assert_eq!(
            history.level_line(15.0)[0],
            (2.0, 1.0),
            "anchored at the last pruned event"
        );
    }

    #[test]
    fn reconfiguration_changes_the_slope_from_then_on() {
        let slow = BucketConfig::new(10.0, 1.0).unwrap();
        let fast = BucketConfig::new(10.0, 4.0).unwrap();
        let mut history = History::new(&slow, 0.0, 0.0, 20.0);
        history.reconfigure(2.0, &fast, 2.0);
        let line = history.level_line(3.0);
        assert_eq!(line.last(), Some(&(3.0, 6.0)));
    }

    #[test]
    fn revision_changes_with_every_change_and_only_then() {
        let config = BucketConfig::new(5.0, 1.0).unwrap();
        let mut bucket = TokenBucket::started_at(config, 0.0).unwrap();
        let mut history = History::new(&config, 5.0, 0.0, 10.0);

        let r0 = history.revision();
        history.prune(5.0);
        assert_eq!(history.revision(), r0, "nothing to prune: unchanged");
        let d = bucket.try_acquire(1.0, 1.0).unwrap();
        history.record(1.0, &config, &d);
        let r1 = history.revision();
        assert_ne!(r1, r0, "a new event");
        history.prune(10.0);
        assert_eq!(history.revision(), r1, "still within the span");
        history.prune(11.5);
        let r2 = history.revision();
        assert_ne!(r2, r1, "the event left the span");
        history.restart(&config, 5.0, 11.5, 10.0);
        assert_ne!(
            history.revision(),
            r2,
            "a restart, although nothing is charted either way"
        );
        assert_eq!(history.events().count(), 0);
    }
}
