//! The host's clock reading as the session cores take it (graphmind-session §3.9: `heldMs` is
//! measured on a monotonic clock and rounded to two decimals, so a reading carries fractional
//! milliseconds, as a monotonic clock gives them).

use std::cmp::Ordering;

/// A clock reading in milliseconds: finite, `0 ≤ ms ≤ 2^53 − 1`, fractions allowed
/// (`1000.3`). Hosts read epoch milliseconds from a monotonic clock; the whole part is also
/// every frame's `ts`. Built with [`Millis::new`], so a core never sees NaN, ±∞ or a negative
/// time.
#[derive(Debug, Clone, Copy)]
pub struct Millis(f64);

/// Why [`Millis::new`] refused a clock reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockError {
    /// NaN.
    NaN,
    /// +∞ or −∞.
    Infinite,
    /// Below 0.
    Negative,
    /// Above 2^53 − 1 (a frame's `ts` must stay a safe integer, graphmind-v1 §2).
    TooLarge,
}

impl std::fmt::Display for ClockError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ClockError::NaN => "clock reading is NaN: expected milliseconds in [0, 2^53 - 1]",
            ClockError::Infinite => "clock reading is infinite: expected milliseconds in [0, 2^53 - 1]",
            ClockError::Negative => "clock reading is negative: expected milliseconds in [0, 2^53 - 1]",
            ClockError::TooLarge => "clock reading is above 2^53 - 1 milliseconds",
        })
    }
}

impl std::error::Error for ClockError {}

impl Millis {
    /// The largest reading: 2^53 − 1.
    pub const MAX: f64 = 9_007_199_254_740_991.0;

    /// A clock reading of `ms` milliseconds.
    ///
    /// # Errors
    /// [`ClockError`] for NaN, ±∞, a negative value or one above [`Millis::MAX`].
    pub fn new(ms: f64) -> Result<Self, ClockError> {
        if ms.is_nan() {
            Err(ClockError::NaN)
        } else if ms.is_infinite() {
            Err(ClockError::Infinite)
        } else if ms < 0.0 {
            Err(ClockError::Negative)
        } else if ms > Self::MAX {
            Err(ClockError::TooLarge)
        } else {
            // `+ 0.0` turns −0.0 into 0.0, so equality and order agree.
            Ok(Millis(ms + 0.0))
        }
    }

    /// The reading in milliseconds.
    #[must_use]
    pub fn get(self) -> f64 {
        self.0
    }

    /// Whole milliseconds (rounded down): a frame's `ts`.
    #[must_use]
    pub fn whole(self) -> u64 {
        // In range by construction: 0 ≤ self.0 ≤ 2^53 − 1 (deadlines may exceed it, but are
        // never a `ts`); `as` saturates anyway.
        self.0.floor() as u64
    }

    /// `ms` later: a deadline. Finite (at most 2^53 + 2^64), never a `ts`.
    #[must_use]
    pub fn plus(self, ms: u64) -> Millis {
        Millis(self.0 + ms as f64)
    }

    /// Milliseconds from `earlier` to `self`; 0 when the clock stepped back.
    #[must_use]
    pub fn since(self, earlier: Millis) -> f64 {
        (self.0 - earlier.0).max(0.0)
    }
}

impl From<u32> for Millis {
    /// Whole milliseconds (exact).
    fn from(ms: u32) -> Self {
        Millis(f64::from(ms))
    }
}

impl TryFrom<f64> for Millis {
    type Error = ClockError;
    fn try_from(ms: f64) -> Result<Self, ClockError> {
        Millis::new(ms)
    }
}

impl PartialEq for Millis {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Millis {}

impl PartialOrd for Millis {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Millis {
    fn cmp(&self, other: &Self) -> Ordering {
        // Never NaN, never −0.0 (see `new`), so this is the numeric order.
        self.0.total_cmp(&other.0)
    }
}

/// `heldMs` on the wire (§3.9 normalisation): rounded to two decimals; `≤ 0` becomes 0.
pub(super) fn held_ms(ms: f64) -> f64 {
    if ms.is_finite() && ms > 0.0 {
        (ms * 100.0).round() / 100.0
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_what_no_clock_reads() {
        assert_eq!(Millis::new(f64::NAN), Err(ClockError::NaN));
        assert_eq!(Millis::new(f64::INFINITY), Err(ClockError::Infinite));
        assert_eq!(Millis::new(f64::NEG_INFINITY), Err(ClockError::Infinite));
        assert_eq!(Millis::new(-0.001), Err(ClockError::Negative));
        assert_eq!(Millis::new(9_007_199_254_740_992.0), Err(ClockError::TooLarge));
        assert_eq!(Millis::new(-0.0).map(Millis::get), Ok(0.0));
        assert_eq!(Millis::new(Millis::MAX).map(Millis::whole), Ok(9_007_199_254_740_991));
    }

    #[test]
    fn keeps_fractions() {
        let a = Millis::new(1000.3).expect("valid");
        let b = Millis::new(1000.55).expect("valid");
        assert_eq!(a.whole(), 1000);
        assert!((b.since(a) - 0.25).abs() < 1e-9);
        assert_eq!(a.since(b), 0.0);
        assert!(a < b && a.plus(1) > b);
        assert_eq!(held_ms(b.since(a)), 0.25);
        assert_eq!(held_ms(0.004), 0.0);
        assert_eq!(held_ms(0.005_1), 0.01);
        assert_eq!(held_ms(-3.0), 0.0);
    }
}
