//! `glemu trace`'s hook: a pixel whose fragments every draw records
//! (glemu_pipeline::FragmentTrace).

use super::Context;
use std::sync::Arc;

/// # glemu's own — Following one pixel through draws (`glemu trace`)
impl Context {
    /// Follow pixel (x, y) (window coordinates, origin bottom-left) through every later
    /// draw: the fragment program runs in the interpreter with a trace for the batches
    /// holding the pixel, recorded in `trace` (read it with
    /// [`crate::FragmentTrace::take`]). None stops tracing. The image does not
    /// change.
    ///
    /// ```
    /// use std::sync::Arc;
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// let t = Arc::new(glemu::FragmentTrace::new(1, 2, None));
    /// ctx.set_fragment_trace(Some(t.clone()));
    /// assert!(t.take().is_empty());
    /// ctx.set_fragment_trace(None);
    /// ```
    pub fn set_fragment_trace(&mut self, trace: Option<Arc<glemu_pipeline::FragmentTrace>>) {
        self.trace = trace;
    }
}
