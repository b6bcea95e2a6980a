//! Executors cached per program, so a program's native kernels are compiled once and
//! reused by every draw (a draw snapshot would otherwise build a fresh executor).

use super::Context;
use glemu_programs::exec::{Backend, Executor};
use glemu_programs::Program;
use std::collections::HashMap;
use std::sync::Arc;

/// Past this many cached executors, those whose program nothing else holds any more
/// (deleted or reloaded program objects) are dropped.
const PRUNE_AT: usize = 64;

#[derive(Debug)]
pub(crate) struct Executors {
    backend: Backend,
    /// Keyed by the program's address: the executor holds the `Arc`, so the address
    /// cannot be reused by another program while the entry exists.
    by_program: HashMap<usize, Arc<Executor>>,
}

impl Default for Executors {
    fn default() -> Executors {
        Executors {
            backend: Backend::from_env(),
            by_program: HashMap::new(),
        }
    }
}

impl Executors {
    pub(crate) fn get(&mut self, program: &Arc<Program>) -> Arc<Executor> {
        if self.by_program.len() >= PRUNE_AT {
            self.by_program
                .retain(|_, e| Arc::strong_count(e.program()) > 1);
        }
        let backend = self.backend;
        Arc::clone(
            self.by_program
                .entry(Arc::as_ptr(program) as usize)
                .or_insert_with(|| {
                    Arc::new(Executor::new(Arc::clone(program)).with_backend(backend))
                }),
        )
    }
}

/// # Chapter 11 — How programs run (glemu)
///
/// Native code or the reference interpreter.
impl Context {
    /// How programs run: [`Backend::Native`] (machine code compiled per program, the
    /// default) or [`Backend::Interpreter`] (the reference, for per-pixel debugging and for
    /// bisecting). Both give identical images. The default can also be switched with the
    /// environment variable `GLEMU_INTERPRET=1`.
    ///
    /// ```
    /// use glemu::programs::exec::Backend;
    /// let mut ctx = glemu::Context::new(4, 4).unwrap();
    /// ctx.set_program_backend(Backend::Interpreter);
    /// assert_eq!(ctx.program_backend(), Backend::Interpreter);
    /// ```
    pub fn set_program_backend(&mut self, backend: Backend) {
        if self.executors.backend != backend {
            self.executors.backend = backend;
            self.executors.by_program.clear();
        }
    }

    /// The backend programs run on (see [`Context::set_program_backend`]).
    ///
    /// ```
    /// use glemu::programs::exec::Backend;
    /// let ctx = glemu::Context::new(4, 4).unwrap();
    /// assert!(matches!(ctx.program_backend(), Backend::Native | Backend::Interpreter));
    /// ```
    pub fn program_backend(&self) -> Backend {
        self.executors.backend
    }
}
