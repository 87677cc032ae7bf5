//! The diagram's behaviour without a screen: one bucket on the lesson clock, its recent history,
//! automatic traffic and the last request, changed only by the actions a reader can take. Every
//! method takes the wall time (seconds, from any fixed origin) at which it happens; the clock turns
//! it into lesson time. Each action is recorded with its times, so a session can be replayed.
//!
//! ```
//! use bucketlab::limiter::{BucketConfig, Session};
//!
//! let mut session = Session::new(BucketConfig::new(10.0, 5.0)?, 0.0);
//! session.pause(0.0);
//! let shot = session.send(1.0, 11, 0.0)?; // a burst of 11 at lesson time 0
//! assert!(!shot.decision.is_admitted());
//! session.step(0.2, 0.0)?; // the eleventh's retry_after
//! assert!(session.send(1.0, 1, 0.0)?.decision.is_admitted());
//! assert_eq!(session.log().entries().len(), 4);
//! # Ok::<(), bucketlab::limiter::InvalidValue>(())
//! ```

use super::bucket::{time_slack, BucketConfig, Decision, TokenBucket};
use super::clock::SimClock;
use super::error::{Field, InvalidValue, Rule};
use super::history::History;
use super::traffic::{Arrivals, Pattern};
use std::cell::Cell;

/// Lesson seconds a request's marker is in flight on the diagram.
pub const FLIGHT_SECONDS: f64 = 0.6;
/// Lesson seconds of history kept for the timeline.
pub const SPAN: f64 = 20.0;
/// The most requests one burst sends.
pub const MAX_BURST: u32 = 100;
/// The most lesson seconds one step moves time forward (an hour, the longest scenario): far
/// beyond anything the diagram shows, and small enough that lesson time stays fine-grained (at
/// 1e20 s a 0.1 s step back would round away).
pub const MAX_STEP_SECONDS: f64 = 3600.0;
/// Lesson seconds within which a moment counts as the same moment (as the bucket's 1 ns).
const TOLERANCE: f64 = 1e-9;

/// One request as the diagram animates it: when, what it got, and its cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Shot {
    /// Lesson time of the request.
    pub at: f64,
    /// What the bucket decided.
    pub decision: Decision,
    /// The tokens it asked for.
    pub cost: f64,
    /// The bucket's `B` and `r` when it was decided.
    pub config: BucketConfig,
}

/// Decisions taken since a view last looked ([`Session::take_unseen`]): how many, how many were
/// admitted, and the latest.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Tally {
    /// Requests decided.
    pub requests: u32,
    /// Of those, admitted.
    pub admitted: u32,
    /// The latest of them.
    pub last: Option<Shot>,
}

/// Something a reader (or a host page) did to the session.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Action {
    /// `count` requests of `cost` tokens, at once.
    Send {
        /// Tokens each request asks for.
        cost: f64,
        /// How many requests.
        count: u32,
    },
    /// New `B` and `r`, tokens kept (capped at the new `B`).
    Reconfigure {
        /// The new configuration.
        config: BucketConfig,
        /// Whether it also became what "reset" returns to (a host's `configure`).
        initial: bool,
    },
    /// Back to the initial configuration, full (or initial) bucket, no traffic, empty chart.
    Reset,
    /// Lesson time stopped.
    Pause,
    /// Lesson time running again.
    Resume,
    /// Lesson time moved forward.
    Step {
        /// Lesson seconds added.
        seconds: f64,
    },
    /// Lesson seconds per wall second changed.
    Speed {
        /// The new speed.
        speed: f64,
    },
    /// Automatic traffic started (or restarted with new settings).
    Traffic {
        /// Steady or Poisson.
        pattern: Pattern,
        /// Requests per second.
        rate: f64,
        /// Seed of the Poisson arrivals.
        seed: u64,
    },
    /// Automatic traffic stopped.
    StopTraffic,
}

impl Action {
    /// Whether it only changes how lesson time runs (pause, resume, step, speed): such actions
    /// change no decision, so replaying by lesson time leaves them out.
    pub fn is_clock(&self) -> bool {
        matches!(
            self,
            Action::Pause | Action::Resume | Action::Step { .. } | Action::Speed { .. }
        )
    }
}

/// One recorded action: its lesson time, the wall time it was given, and what it was.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Entry {
    /// Lesson time when it happened.
    pub at: f64,
    /// The wall time passed with it (what a replay passes again).
    pub wall: f64,
    /// What happened.
    pub action: Action,
}

/// Everything needed to replay a session: how it started and every action since, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Log {
    config: BucketConfig,
    start: f64,
    entries: Vec<Entry>,
}

impl Log {
    /// The configuration the session started with.
    pub fn config(&self) -> &BucketConfig {
        &self.config
    }

    /// The wall time at which lesson time was 0.
    pub fn start(&self) -> f64 {
        self.start
    }

    /// The actions, oldest first. Only actions that took effect are recorded.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }
}

/// How a session's picture changes as wall time passes ([`Session::motion`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Motion {
    /// Not at all: lesson time stands still, or nothing is left to move.
    Still,
    /// Only the chart's track, as its events slide towards its left edge.
    Chart,
    /// Every frame: the water, a marker, a countdown or the traffic.
    Frames,
}

/// A token bucket on the lesson clock, as the diagram shows it.
#[derive(Debug, Clone)]
pub struct Session {
    /// What "reset" returns to.
    initial: BucketConfig,
    bucket: TokenBucket,
    clock: SimClock,
    history: History,
    traffic: Option<Arrivals>,
    last: Option<Shot>,
    unseen: Tally,
    log: Log,
    /// Whether actions happen at exactly the lesson time given (while a recording is played),
    /// rather than at the next whole millisecond ([`Session::action_time`]).
    exact: bool,
    /// A replay of this session held at an earlier moment, for [`Session::at`] to start from.
    checkpoint: Checkpoint,
}

/// A replay held at a lesson time, kept so that scrubbing back an hour into a session does not
/// decide the whole hour's traffic again at each step. A copy of a session starts without one.
#[derive(Default)]
struct Checkpoint(Cell<Option<Box<(f64, Session)>>>);

impl Clone for Checkpoint {
    fn clone(&self) -> Self {
        Checkpoint::default()
    }
}

impl std::fmt::Debug for Checkpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Checkpoint")
    }
}

/// Lesson seconds between the moments a checkpoint may be held at.
const CHECKPOINT_EVERY: f64 = 30.0;

impl Session {
    /// A session of a bucket configured by `config`, lesson time 0 at wall time `wall`, running.
    pub fn new(config: BucketConfig, wall: f64) -> Self {
        Session {
            initial: config,
            // Lesson time 0 is finite, so starting there cannot fail.
            bucket: TokenBucket::started_at(config, 0.0)
                .unwrap_or_else(|_| TokenBucket::new(config)),
            clock: SimClock::new(wall),
            history: History::new(&config, config.initial_tokens(), 0.0, SPAN),
            traffic: None,
            last: None,
            unseen: Tally::default(),
            log: Log {
                config,
                start: wall,
                entries: Vec::new(),
            },
            exact: false,
            checkpoint: Checkpoint::default(),
        }
    }

    /// Replays `log` into a fresh session: the same actions at the same wall times give the same
    /// bucket, clock, traffic and last request.
    pub fn replay(log: &Log) -> Result<Session, InvalidValue> {
        let mut session = Session::new(log.config, log.start);
        for entry in &log.entries {
            // The frames between actions, which the log leaves out, decided the traffic up to at
            // least the action's time (a click queued from an earlier wall time, `sendAt`, comes
            // after the arrivals they decided): decided here, the action is timed as it was.
            session.catch_up(entry.at);
            session.apply(entry.action, entry.wall)?;
        }
        Ok(session)
    }

    /// The session as it was at lesson time `at` (from 0 to now, within a nanosecond's
    /// tolerance): every recorded action up to then replayed through the core at its own lesson
    /// time, automatic traffic decided up to `at`, and the clock held there. What a reader sees
    /// when scrubbing back; the session itself is unchanged.
    pub fn at(&self, at: f64, wall: f64) -> Result<Session, InvalidValue> {
        let now = self.now(wall);
        let at = InvalidValue::check(Field::Now, at, Rule::Between(0.0, now + TOLERANCE))?;
        // From the checkpoint, if it is not later; else a fresh session at lesson time 0, played
        // on from before the first action.
        let kept = self.checkpoint.0.take();
        let (from, mut session) = match &kept {
            Some(held) if held.0 <= at => (held.0, held.1.clone()),
            _ => (f64::NEG_INFINITY, Session::play(self.log.config, [], 0.0)?),
        };
        self.checkpoint.0.set(kept);
        // A new checkpoint on the way, at or before `at`, a minute before now or earlier, so that
        // scrubbing the last minutes replays less than two of them. An action recorded later at
        // an earlier lesson time drops it (`record`).
        let latest = at.min(now - 2.0 * CHECKPOINT_EVERY);
        let mark = (latest / CHECKPOINT_EVERY).floor() * CHECKPOINT_EVERY;
        if mark > from && mark > 0.0 {
            self.play_on(&mut session, from, mark)?;
            self.checkpoint
                .0
                .set(Some(Box::new((mark, session.clone()))));
            self.play_on(&mut session, mark, at)?;
        } else {
            self.play_on(&mut session, from, at)?;
        }
        Ok(session)
    }

    /// Moves `past`, this session's replay held at lesson time `from` (what [`Session::at`] gave
    /// for `from`, or this call), on to the later moment `at`: the same state [`Session::at`] gives
    /// for `at`, for the work of the actions and arrivals in between only. A recording played on
    /// frame by frame costs each frame its own time, not the whole recording again. An `at`
    /// before `from` is refused (that is [`Session::at`]'s work).
    pub fn play_on(&self, past: &mut Session, from: f64, at: f64) -> Result<(), InvalidValue> {
        let at = InvalidValue::check(Field::Now, at, Rule::Between(from, f64::MAX))?;
        past.exact = true;
        let mut until = at;
        for e in &self.log.entries {
            // The actions up to `at` not done up to `from`; one within the tolerance after a
            // moment is shown as done then.
            if e.at > from + TOLERANCE && e.at <= at + TOLERANCE && !e.action.is_clock() {
                past.hold_at(e.at)?;
                past.apply(e.action, 0.0)?;
                until = until.max(e.at);
            }
        }
        past.hold_at(until.max(past.now(0.0)))?;
        past.advance(0.0);
        past.exact = false;
        Ok(())
    }

    /// A stopped session of `config` that does each of `steps` (actions that are not clock
    /// actions, at non-decreasing lesson times) at exactly its lesson time, then holds at lesson
    /// time `until`. Decisions depend only on lesson times, so this reproduces any session's state
    /// from its actions and their times, whatever the wall clock did.
    pub fn play(
        config: BucketConfig,
        steps: impl IntoIterator<Item = (f64, Action)>,
        until: f64,
    ) -> Result<Session, InvalidValue> {
        let mut session = Session::new(config, 0.0);
        session.pause(0.0);
        session.exact = true;
        for (at, action) in steps {
            session.hold_at(at)?;
            session.apply(action, 0.0)?;
        }
        session.hold_at(until)?;
        session.advance(0.0);
        session.exact = false;
        Ok(session)
    }

    /// Moves a stopped clock to exactly lesson time `at` (not before now), recorded as a step.
    fn hold_at(&mut self, at: f64) -> Result<(), InvalidValue> {
        let now = self.now(0.0);
        let at = InvalidValue::check(Field::Now, at, Rule::Between(now, f64::MAX))?;
        if at > now {
            self.catch_up(at);
            self.record(now, 0.0, Action::Step { seconds: at - now });
            // A fresh clock stepped once from 0 reads `at` exactly (now + (at − now) might not).
            let mut clock = SimClock::new(0.0);
            clock.pause(0.0);
            clock.step(at)?;
            self.clock = clock;
        }
        Ok(())
    }

    /// Does `action` at wall time `wall`.
    pub fn apply(&mut self, action: Action, wall: f64) -> Result<(), InvalidValue> {
        match action {
            Action::Send { cost, count } => self.send(cost, count, wall).map(|_| ()),
            Action::Reconfigure { config, initial } => self.switch(config, initial, wall),
            Action::Reset => self.reset(wall),
            Action::Pause => {
                self.pause(wall);
                Ok(())
            }
            Action::Resume => {
                self.resume(wall);
                Ok(())
            }
            Action::Step { seconds } => self.step(seconds, wall),
            Action::Speed { speed } => self.set_speed(speed, wall),
            Action::Traffic {
                pattern,
                rate,
                seed,
            } => self.start_traffic(pattern, rate, seed, wall),
            Action::StopTraffic => {
                self.stop_traffic(wall);
                Ok(())
            }
        }
    }

    /// Lesson time at wall time `wall`.
    pub fn now(&self, wall: f64) -> f64 {
        self.clock.now(wall)
    }

    /// The bucket's configuration now.
    pub fn config(&self) -> &BucketConfig {
        self.bucket.config()
    }

    /// What "reset" returns to: the configuration at the start, or the last one a host set.
    pub fn initial(&self) -> &BucketConfig {
        &self.initial
    }

    /// The bucket itself.
    pub fn bucket(&self) -> &TokenBucket {
        &self.bucket
    }

    /// The lesson clock.
    pub fn clock(&self) -> &SimClock {
        &self.clock
    }

    /// Tokens at wall time `wall` (automatic arrivals not yet caught up are not counted).
    pub fn tokens(&self, wall: f64) -> f64 {
        self.bucket.tokens_at(self.now(wall)).unwrap_or(0.0)
    }

    /// Recent decisions and reconfigurations, for the timeline.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The latest request, if any since the start or the last reset.
    pub fn last_shot(&self) -> Option<&Shot> {
        self.last.as_ref()
    }

    /// Whether lesson time is stopped.
    pub fn is_paused(&self) -> bool {
        self.clock.is_paused()
    }

    /// The automatic traffic, if it is on.
    pub fn traffic(&self) -> Option<&Arrivals> {
        self.traffic.as_ref()
    }

    /// Every action so far, with the start it replays from.
    pub fn log(&self) -> &Log {
        &self.log
    }

    /// The decisions taken since the last call (what a view announces and reports).
    pub fn take_unseen(&mut self) -> Tally {
        std::mem::take(&mut self.unseen)
    }

    /// Brings the session to wall time `wall`: each automatic arrival up to then is decided at its
    /// own exact time, and history older than [`SPAN`] is dropped. Returns the lesson time.
    pub fn advance(&mut self, wall: f64) -> f64 {
        let now = self.now(wall);
        self.catch_up(now);
        self.history.prune(now);
        now
    }

    /// Whether the picture changes as wall time passes: lesson time runs and the bucket refills,
    /// a marker is in flight, an event is still on the chart, a 429's wait is counting down, or
    /// traffic is on.
    pub fn is_moving(&self, wall: f64) -> bool {
        self.motion(wall) != Motion::Still
    }

    /// How the picture changes as wall time passes ([`Session::is_moving`]): every frame while
    /// the bucket refills, a marker flies, a 429's wait counts down or traffic runs; only the
    /// chart's track, which steps a few times a second, once a full bucket's last event is on
    /// the chart alone (its last [`SPAN`] seconds); not at all while lesson time stands still.
    pub fn motion(&self, wall: f64) -> Motion {
        if self.clock.is_paused() {
            return Motion::Still;
        }
        let now = self.now(wall);
        let config = self.config();
        let refilling = config.refill_rate() > 0.0 && self.tokens(wall) < config.capacity();
        let in_flight = self.last.is_some_and(|s| now - s.at < FLIGHT_SECONDS);
        let counting_down = self.retry_in(wall).is_some();
        if refilling || in_flight || counting_down || self.traffic.is_some() {
            Motion::Frames
        } else if self.history.latest().is_some_and(|e| now - e.at < SPAN) {
            Motion::Chart
        } else {
            Motion::Still
        }
    }

    /// Lesson seconds left, at wall time `wall`, until the last request, if it was refused, would
    /// pass if sent again: `(c − tokens) / r` from the bucket as it is now, under the current
    /// configuration (a change of `B` or `r` since the refusal counts). `None` when it would pass
    /// now (within the bucket's time tolerance), when it was admitted, and when it can no longer
    /// pass ([`Session::retry_decision`] tells which). A view counts it down after a 429.
    pub fn retry_in(&self, wall: f64) -> Option<f64> {
        let left = self.retry_decision(wall)?.retry_after()?;
        (left > time_slack(self.now(wall))).then_some(left)
    }

    /// What the last request would get if sent again at wall time `wall`, the bucket unchanged;
    /// `None` when there is no last request or it was admitted. Sent again, it comes no earlier
    /// than the bucket's last decision (as [`Session::action_time`] times every action): a frame
    /// stamped a few milliseconds before the click it follows is not a longer wait than the
    /// refusal's own (1.1 s left after "the exact wait: 0.995 s").
    pub fn retry_decision(&self, wall: f64) -> Option<Decision> {
        let shot = self.last.filter(|s| !s.decision.is_admitted())?;
        self.bucket
            .clone()
            .try_acquire(shot.cost, self.after_decided(self.now(wall)))
            .ok()
    }

    /// `now`, or the bucket's last decision if that is later: nothing the bucket decides comes
    /// before it (its clock never goes back).
    fn after_decided(&self, now: f64) -> f64 {
        now.max(self.bucket.last_refill().unwrap_or(0.0))
    }

    /// The lesson time at which an action taken at wall time `wall` happens: now, rounded up to
    /// the next whole millisecond (a stopped clock is moved there), so that its time takes few
    /// characters in a scenario link and a replay does it at the same time, to the bit. Automatic
    /// arrivals up to that time are decided first, in the session as in its replay. Never before
    /// the bucket's last decision (a click queued from earlier, `sendAt`, comes after it). Exactly
    /// now while a recording is played ([`Session::play`]), whose times are kept as written.
    fn action_time(&mut self, wall: f64) -> f64 {
        let now = self.now(wall);
        if self.exact {
            return now;
        }
        // Never before a request the bucket decided or an action recorded (starting traffic
        // decides nothing), so the actions' times never go back: time travel and a scenario link
        // replay them in order. A Poisson arrival falls between milliseconds: the action comes at
        // the next one, still after it. Clock actions, which both leave out, are no bound: timed
        // at now exactly, they may be a hair past the whole millisecond taken for now
        // (65.53500000000349).
        let recorded = self
            .log
            .entries
            .iter()
            .rfind(|e| !e.action.is_clock())
            .map_or(0.0, |e| e.at);
        let at = ms_ceil(self.after_decided(now)).max(recorded);
        if at > now && self.clock.is_paused() {
            // Paused, lesson time is `base + step` with `at − now` exact: it reads `at`.
            let _ = self.clock.step(at - now);
        }
        at
    }

    /// Sends `count` (1 to [`MAX_BURST`]) requests of `cost` tokens at once; returns the last.
    pub fn send(&mut self, cost: f64, count: u32, wall: f64) -> Result<Shot, InvalidValue> {
        let burst = Rule::Whole(1, MAX_BURST);
        InvalidValue::check(Field::BurstSize, f64::from(count), burst)?;
        let cost = InvalidValue::check(Field::Cost, cost, Rule::NonNegative)?;
        let now = self.action_time(wall);
        self.catch_up(now);
        let mut shot = self.decide(cost, now)?;
        for _ in 1..count {
            shot = self.decide(cost, now)?;
        }
        self.record(now, wall, Action::Send { cost, count });
        Ok(shot)
    }

    /// Switches to `config`: tokens accrued so far are kept, capped at the new capacity.
    pub fn reconfigure(&mut self, config: BucketConfig, wall: f64) -> Result<(), InvalidValue> {
        self.switch(config, false, wall)
    }

    /// [`Session::reconfigure`], and "reset" returns to `config` from now on (what a host page
    /// sets is the widget's new starting point).
    pub fn configure(&mut self, config: BucketConfig, wall: f64) -> Result<(), InvalidValue> {
        self.switch(config, true, wall)
    }

    fn switch(
        &mut self,
        config: BucketConfig,
        initial: bool,
        wall: f64,
    ) -> Result<(), InvalidValue> {
        let now = self.action_time(wall);
        self.catch_up(now);
        self.bucket.reconfigure(config, now)?;
        let tokens = self.bucket.tokens_at(now)?;
        self.history.reconfigure(now, &config, tokens);
        if initial {
            self.initial = config;
        }
        self.record(now, wall, Action::Reconfigure { config, initial });
        Ok(())
    }

    /// Back to the starting state: the initial configuration with its starting tokens, no
    /// traffic, an empty chart, no last request and lesson time at speed 1 again. Lesson time
    /// itself is kept, and so is whether it runs (pausing is how a reader looks, not a setting).
    pub fn reset(&mut self, wall: f64) -> Result<(), InvalidValue> {
        let now = self.action_time(wall);
        self.clock.set_speed(1.0, wall)?;
        let config = self.initial;
        self.bucket = TokenBucket::started_at(config, now)?;
        self.history
            .restart(&config, config.initial_tokens(), now, SPAN);
        self.traffic = None;
        self.last = None;
        self.unseen = Tally::default();
        self.record(now, wall, Action::Reset);
        Ok(())
    }

    /// Stops lesson time (nothing happens if it is already stopped).
    pub fn pause(&mut self, wall: f64) {
        if !self.clock.is_paused() {
            let now = self.now(wall);
            self.catch_up(now);
            self.clock.pause(wall);
            self.record(now, wall, Action::Pause);
        }
    }

    /// Lets lesson time run again (nothing happens if it runs).
    pub fn resume(&mut self, wall: f64) {
        if self.clock.is_paused() {
            let now = self.now(wall);
            self.clock.resume(wall);
            self.record(now, wall, Action::Resume);
        }
    }

    /// Moves lesson time forward by `seconds` (from 0 to [`MAX_STEP_SECONDS`]), paused or not.
    pub fn step(&mut self, seconds: f64, wall: f64) -> Result<(), InvalidValue> {
        let seconds = Session::check_step(seconds)?;
        let now = self.now(wall);
        self.catch_up(now);
        self.clock.step(seconds)?;
        self.record(now, wall, Action::Step { seconds });
        Ok(())
    }

    /// `seconds` if it is a step [`Session::step`] takes (from 0 to [`MAX_STEP_SECONDS`]), or an
    /// error naming it, its value and that range.
    pub fn check_step(seconds: f64) -> Result<f64, InvalidValue> {
        InvalidValue::check(Field::Step, seconds, Rule::Between(0.0, MAX_STEP_SECONDS))
    }

    /// Runs lesson time at `speed` (finite, > 0) times wall time from now on.
    pub fn set_speed(&mut self, speed: f64, wall: f64) -> Result<(), InvalidValue> {
        let now = self.now(wall);
        self.catch_up(now);
        self.clock.set_speed(speed, wall)?;
        self.record(now, wall, Action::Speed { speed });
        Ok(())
    }

    /// Starts automatic traffic from now: `pattern` at `rate` requests per second (finite, in
    /// `(0, 50]`), Poisson arrivals drawn from `seed`. Replaces traffic that was on.
    pub fn start_traffic(
        &mut self,
        pattern: Pattern,
        rate: f64,
        seed: u64,
        wall: f64,
    ) -> Result<(), InvalidValue> {
        // Checked before the action's time moves a stopped clock.
        Arrivals::new(pattern, rate, seed, 0.0)?;
        let now = self.action_time(wall);
        let arrivals = Arrivals::new(pattern, rate, seed, now)?;
        self.catch_up(now);
        self.traffic = Some(arrivals);
        let action = Action::Traffic {
            pattern,
            rate,
            seed,
        };
        self.record(now, wall, action);
        Ok(())
    }

    /// Stops automatic traffic (nothing happens if it is off).
    pub fn stop_traffic(&mut self, wall: f64) {
        if self.traffic.is_some() {
            let now = self.action_time(wall);
            self.catch_up(now);
            self.traffic = None;
            self.record(now, wall, Action::StopTraffic);
        }
    }

    /// Decides every automatic arrival up to lesson time `now`, each at its own time.
    fn catch_up(&mut self, now: f64) {
        let Some(mut traffic) = self.traffic.take() else {
            return;
        };
        while let Some(at) = traffic.next_until(now) {
            // Arrival times are finite and the cost is 1, so a decision cannot fail.
            let _ = self.decide(1.0, at);
        }
        self.traffic = Some(traffic);
    }

    /// One request of `cost` at lesson time `at`, recorded in the history and the tally.
    fn decide(&mut self, cost: f64, at: f64) -> Result<Shot, InvalidValue> {
        let decision = self.bucket.try_acquire(cost, at)?;
        let config = *self.bucket.config();
        self.history.record(at, &config, &decision);
        let shot = Shot {
            at,
            decision,
            cost,
            config,
        };
        self.last = Some(shot);
        self.unseen.requests = self.unseen.requests.saturating_add(1);
        self.unseen.admitted =
            (self.unseen.admitted).saturating_add(u32::from(decision.is_admitted()));
        self.unseen.last = Some(shot);
        Ok(shot)
    }

    fn record(&mut self, at: f64, wall: f64, action: Action) {
        // A checkpoint held at or after this action's time no longer replays the log: dropped.
        // (The widget records none there: it travels paused, and its clock never goes back.)
        if let Some(held) = self.checkpoint.0.take() {
            if held.0 + TOLERANCE < at {
                self.checkpoint.0.set(Some(held));
            }
        }
        self.log.entries.push(Entry { at, wall, action });
    }
}

/// `t` rounded up to a whole millisecond, a hair of slack absorbing float noise (a sum of tenths
/// such as 0.30000000000000004 stays 0.3).
pub fn ms_ceil(t: f64) -> f64 {
    // `+ 0.0`: the ceiling of −1e-6 is −0, which a link would write as "-0".
    (t * 1000.0 - 1e-6).ceil() / 1000.0 + 0.0
}
