//! What one context allows a single call: the per-draw watchdog (a GPU's TDR), so a
//! legal draw that would run for minutes ends with an error instead.

use super::Context;
use std::time::Duration;

/// The time a draw gets unless [`Context::set_draw_time_limit`] says otherwise.
pub const DEFAULT_DRAW_TIME_LIMIT: Duration = Duration::from_secs(5);

/// A context's resource limits.
#[derive(Clone, Debug)]
pub(crate) struct Limits {
    pub draw_time: Option<Duration>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            draw_time: Some(DEFAULT_DRAW_TIME_LIMIT),
        }
    }
}

/// # Chapter 10.3 — Drawing: the per-draw time limit (glemu's own)
impl Context {
    /// The longest one draw call or compute dispatch may run (None: no limit, for
    /// benchmarks). Past it the call stops at its next check point (a batch of vertices,
    /// primitives or work groups, a tile, a few thousand instructions of a program) with
    /// `GL_INVALID_OPERATION` saying so; what it drew before stays, and the context keeps
    /// working.
    ///
    /// ```
    /// use glemu::{gl, Context, GlError};
    /// use std::time::{Duration, Instant};
    /// let mut ctx = Context::new(128, 128).unwrap();
    /// assert_eq!(ctx.draw_time_limit(), Some(glemu::context::DEFAULT_DRAW_TIME_LIMIT));
    /// // 400,000 loop trips per fragment: minutes of work for a 128×128 rectangle.
    /// ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, 1).unwrap();
    /// ctx.program_string(gl::FRAGMENT_PROGRAM_ARB, "!!NVfp5.0\nTEMP t;\nMOV t, 0;\n\
    ///     REP 400000;\nADD t.x, t.x, 1;\nENDREP;\nMOV result.color, t;\nEND\n").unwrap();
    /// ctx.enable(gl::FRAGMENT_PROGRAM_ARB).unwrap();
    /// let tri: Vec<u8> = [-1.0f32, -1.0, 3.0, -1.0, -1.0, 3.0].iter().flat_map(|f| f.to_le_bytes()).collect();
    /// ctx.bind_buffer(gl::ARRAY_BUFFER, 1).unwrap();
    /// ctx.buffer_data(gl::ARRAY_BUFFER, &tri, gl::STATIC_DRAW).unwrap();
    /// ctx.vertex_attrib_pointer(0, 2, gl::FLOAT, false, 0, 0).unwrap();
    /// ctx.enable_vertex_attrib_array(0).unwrap();
    /// ctx.set_draw_time_limit(Some(Duration::from_millis(100)));
    /// let t0 = Instant::now();
    /// let e = ctx.draw_arrays(gl::TRIANGLES, 0, 3).unwrap_err();
    /// assert_eq!(e.gl, GlError::InvalidOperation);
    /// assert!(e.message.contains("time limit of 0.100 s"), "{e}");
    /// assert!(t0.elapsed() < Duration::from_secs(5));
    /// // The context keeps working.
    /// ctx.disable(gl::FRAGMENT_PROGRAM_ARB).unwrap();
    /// ctx.clear_color([0.0, 1.0, 0.0, 1.0]).unwrap();
    /// ctx.clear(gl::COLOR_BUFFER_BIT).unwrap();
    /// assert_eq!(ctx.read_pixel(5, 5).unwrap(), [0.0, 1.0, 0.0, 1.0]);
    /// ctx.set_draw_time_limit(None);
    /// assert_eq!(ctx.draw_time_limit(), None);
    /// ```
    pub fn set_draw_time_limit(&mut self, limit: Option<Duration>) {
        self.limits.draw_time = limit;
    }

    /// The limit [`Context::set_draw_time_limit`] set.
    pub fn draw_time_limit(&self) -> Option<Duration> {
        self.limits.draw_time
    }
}
