//! Lesson time: a clock derived from the page's wall clock that can pause, change speed and step.

use super::error::{Field, InvalidValue, Rule};

/// Lesson time in seconds, computed from wall time passed in by the caller (the view reads
/// `performance.now()`; tests pass numbers). Starts at 0, running at speed 1.
#[derive(Debug, Clone, PartialEq)]
pub struct SimClock {
    /// Lesson time at `base_wall`.
    base_time: f64,
    /// Wall time of the last rebase.
    base_wall: f64,
    speed: f64,
    paused: bool,
}

impl SimClock {
    /// A running clock reading 0 at wall time `wall`.
    pub fn new(wall: f64) -> Self {
        SimClock {
            base_time: 0.0,
            base_wall: wall,
            speed: 1.0,
            paused: false,
        }
    }

    /// Lesson time at wall time `wall`. Wall time going backwards is not credited.
    pub fn now(&self, wall: f64) -> f64 {
        if self.paused {
            self.base_time
        } else {
            self.base_time + (wall - self.base_wall).max(0.0) * self.speed
        }
    }

    /// Whether the clock is stopped.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// Lesson seconds per wall second.
    pub fn speed(&self) -> f64 {
        self.speed
    }

    /// Stops lesson time at its value at `wall`.
    pub fn pause(&mut self, wall: f64) {
        self.rebase(wall);
        self.paused = true;
    }

    /// Lets lesson time run again from where it stopped.
    pub fn resume(&mut self, wall: f64) {
        self.rebase(wall);
        self.paused = false;
    }

    /// Runs lesson time at `speed` (finite, > 0) times wall time from `wall` on.
    pub fn set_speed(&mut self, speed: f64, wall: f64) -> Result<(), InvalidValue> {
        let speed = InvalidValue::check(Field::Speed, speed, Rule::Positive)?;
        self.rebase(wall);
        self.speed = speed;
        Ok(())
    }

    /// Moves lesson time forward by `seconds` (finite, ≥ 0), paused or not.
    pub fn step(&mut self, seconds: f64) -> Result<(), InvalidValue> {
        self.base_time += InvalidValue::check(Field::Step, seconds, Rule::NonNegative)?;
        Ok(())
    }

    fn rebase(&mut self, wall: f64) {
        self.base_time = self.now(wall);
        self.base_wall = self.base_wall.max(wall);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_pauses_and_resumes_without_jumps() {
        let mut clock = SimClock::new(100.0);
        assert_eq!(clock.now(101.5), 1.5);
        clock.pause(102.0);
        assert_eq!(clock.now(500.0), 2.0, "paused time must not move");
        clock.resume(600.0);
        assert_eq!(clock.now(601.0), 3.0);
    }

    #[test]
    fn speed_scales_time_from_the_change_on() {
        let mut clock = SimClock::new(0.0);
        clock.set_speed(4.0, 1.0).unwrap();
        assert_eq!(clock.now(2.0), 5.0);
        clock.set_speed(0.25, 2.0).unwrap();
        assert_eq!(clock.now(6.0), 6.0);
        assert!(clock.set_speed(0.0, 6.0).is_err());
        assert_eq!(clock.speed(), 0.25, "a refused speed leaves the old one");
    }

    #[test]
    fn step_advances_a_paused_clock_exactly() {
        let mut clock = SimClock::new(0.0);
        clock.pause(0.0);
        clock.step(0.2).unwrap();
        clock.step(0.2).unwrap();
        assert_eq!(clock.now(99.0), 0.4);
        assert!(clock.step(-1.0).is_err());
        assert!(clock.step(f64::NAN).is_err());
    }

    #[test]
    fn wall_time_going_backwards_is_ignored() {
        let clock = SimClock::new(10.0);
        assert_eq!(clock.now(5.0), 0.0);
    }
}
