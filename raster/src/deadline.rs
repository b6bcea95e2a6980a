//! The per-draw watchdog (a GPU's TDR): a moment after which a draw stops at its next
//! coarse check point (a wave, a tile, a run of primitives or fragment batches) with
//! [`RasterError::TimedOut`], leaving what it drew so far.

use crate::error::RasterError;
use std::time::{Duration, Instant};

/// When a draw must end, and the limit it was given (for the message).
///
/// ```
/// use glemu_raster::Deadline;
/// use std::time::Duration;
/// let d = Deadline::after(Duration::from_secs(60)).unwrap();
/// assert!(!d.passed());
/// assert!(Deadline::check(Some(d)).is_ok());
/// let gone = Deadline::after(Duration::ZERO).unwrap();
/// assert!(gone.passed());
/// assert!(Deadline::check(Some(gone)).is_err());
/// assert!(Deadline::check(None).is_ok());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Deadline {
    /// The moment the draw must stop.
    pub at: Instant,
    /// The limit the deadline was made from, for the error message.
    pub limit: Duration,
}

impl Deadline {
    /// `limit` from now; None when that moment is not representable (no limit, in effect).
    pub fn after(limit: Duration) -> Option<Deadline> {
        Some(Deadline {
            at: Instant::now().checked_add(limit)?,
            limit,
        })
    }

    /// Whether the moment has come.
    #[inline]
    pub fn passed(&self) -> bool {
        Instant::now() >= self.at
    }

    /// `Err(TimedOut)` once `deadline` (if any) has passed.
    #[inline]
    pub fn check(deadline: Option<Deadline>) -> Result<(), RasterError> {
        match deadline {
            Some(d) if d.passed() => Err(RasterError::TimedOut(d.limit)),
            _ => Ok(()),
        }
    }
}
