//! One value per program stage, indexed by [`Stage`]: per-target state (bindings, env
//! parameters, enables, subroutine choices) without a numbering of targets to keep in
//! step with another one.

use glemu_programs::Stage;
use std::ops::{Index, IndexMut};

/// Every stage, in the programs IR's order.
pub(crate) const STAGES: [Stage; 6] = [
    Stage::Vertex,
    Stage::TessControl,
    Stage::TessEval,
    Stage::Geometry,
    Stage::Fragment,
    Stage::Compute,
];

/// A `T` for each [`Stage`].
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct StageMap<T>([T; 6]);

/// Where a stage's value sits (the position of the stage in [`STAGES`]).
const fn slot(stage: Stage) -> usize {
    match stage {
        Stage::Vertex => 0,
        Stage::TessControl => 1,
        Stage::TessEval => 2,
        Stage::Geometry => 3,
        Stage::Fragment => 4,
        Stage::Compute => 5,
    }
}

impl<T> StageMap<T> {
    /// `f(stage)` for every stage.
    pub(crate) fn from_fn(mut f: impl FnMut(Stage) -> T) -> StageMap<T> {
        StageMap(STAGES.map(&mut f))
    }

    /// Every stage's value, mutably.
    pub(crate) fn values_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.0.iter_mut()
    }
}

impl<T> Index<Stage> for StageMap<T> {
    type Output = T;
    fn index(&self, stage: Stage) -> &T {
        &self.0[slot(stage)]
    }
}

impl<T> IndexMut<Stage> for StageMap<T> {
    fn index_mut(&mut self, stage: Stage) -> &mut T {
        &mut self.0[slot(stage)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_stage_has_its_own_value() {
        for (i, &s) in STAGES.iter().enumerate() {
            assert_eq!(slot(s), i, "{s:?}");
        }
        let mut m = StageMap::from_fn(|s| s.name());
        for s in STAGES {
            assert_eq!(m[s], s.name());
        }
        m[Stage::Geometry] = "changed";
        assert_eq!(m[Stage::Geometry], "changed");
        assert_eq!(m[Stage::Fragment], "fragment");
        assert_eq!(m.values_mut().count(), 6);
    }
}
