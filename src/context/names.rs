//! Object names for every `gen_*`: an app may bind a name it never generated (GL creates
//! the object on bind), so a counter alone would hand out names already in use, and wrap
//! to 0 after `u32::MAX`.

use crate::error::{Error, Result};
use std::collections::{BTreeMap, HashMap};

/// A table of objects by name.
pub(crate) trait Objects<V> {
    fn count(&self) -> usize;
    fn has(&self, id: u32) -> bool;
    fn put(&mut self, id: u32, v: V);
    /// Room for `n` more objects, or false when it cannot be allocated.
    fn make_room(&mut self, n: usize) -> bool;
}

/// The map types object tables use, each with its way of making room up front.
macro_rules! objects_for {
    ($map:ident, $room:expr) => {
        impl<V> Objects<V> for $map<u32, V> {
            fn count(&self) -> usize {
                self.len()
            }
            fn has(&self, id: u32) -> bool {
                self.contains_key(&id)
            }
            fn put(&mut self, id: u32, v: V) {
                self.insert(id, v);
            }
            fn make_room(&mut self, n: usize) -> bool {
                let room: fn(&mut Self, usize) -> bool = $room;
                room(self, n)
            }
        }
    };
}

objects_for!(HashMap, |m, n| m.try_reserve(n).is_ok());
// A B-tree allocates node by node; the same room in one block stands in for it.
objects_for!(BTreeMap, |_, n| Vec::<(u32, V)>::new()
    .try_reserve_exact(n)
    .is_ok());

/// `glGen*`: `n` fresh names (see [`fresh`]), each given a new object `make()` in
/// `objects`. `OUT_OF_MEMORY` when fewer than `n` names are free (`outside` counts names
/// in use that `objects` does not hold, `in_use_outside` says which) or the names and
/// their objects cannot be allocated; nothing changes then.
pub(crate) fn generate<V>(
    what: &str,
    n: usize,
    room: u64,
    next: &mut u32,
    objects: &mut impl Objects<V>,
    outside: (usize, &dyn Fn(u32) -> bool),
    make: impl Fn() -> V,
) -> Result<Vec<u32>> {
    let (outside_live, in_use_outside) = outside;
    let live = objects.count().saturating_add(outside_live);
    let free = (u32::MAX as usize).saturating_sub(live);
    if n > free {
        return Err(Error::out_of_memory(format!(
            "{n} new {what} names asked for, {free} left"
        )));
    }
    let need = (n as u64).saturating_mul(super::limits::NAME_BYTES as u64);
    if need > room {
        return Err(Error::out_of_memory(format!(
            "{n} new {what} names count {need} bytes; the memory budget has {room} left \
             (Context::set_memory_budget)"
        )));
    }
    let short = || {
        Error::out_of_memory(format!(
            "cannot allocate {n} {what} objects ({} bytes each)",
            std::mem::size_of::<V>()
        ))
    };
    let mut ids = Vec::new();
    ids.try_reserve_exact(n).map_err(|_| short())?;
    if !objects.make_room(n) {
        return Err(short());
    }
    ids = fresh(n, next, live, |id| objects.has(id) || in_use_outside(id));
    for &id in &ids {
        objects.put(id, make());
    }
    Ok(ids)
}

/// No names in use outside the object table.
pub(crate) const NONE_OUTSIDE: (usize, &dyn Fn(u32) -> bool) = (0, &|_| false);

/// `n` names that are not 0, not `in_use` and distinct, searching upward from `*next`
/// (the last name handed out) and wrapping past `u32::MAX` to 1. `live` counts the names
/// in use; when all 2³²−1 names are taken the list is shorter than `n` (GL's
/// `OUT_OF_MEMORY`: the objects behind them would have exhausted memory long before).
pub(crate) fn fresh(
    n: usize,
    next: &mut u32,
    live: usize,
    in_use: impl Fn(u32) -> bool,
) -> Vec<u32> {
    let free = (u32::MAX as usize).saturating_sub(live);
    let n = n.min(free);
    let mut out = Vec::with_capacity(n);
    let mut id = *next;
    while out.len() < n {
        id = if id == u32::MAX { 1 } else { id + 1 };
        if !in_use(id) {
            out.push(id);
        }
    }
    *next = id;
    out
}

#[cfg(test)]
mod tests {
    use super::fresh;
    use std::collections::HashSet;

    #[test]
    fn skips_names_in_use_and_zero_and_wraps() {
        let used: HashSet<u32> = [1, 2, 4, u32::MAX].into();
        let mut next = 0;
        assert_eq!(
            fresh(2, &mut next, used.len(), |i| used.contains(&i)),
            [3, 5]
        );
        let mut next = u32::MAX - 1;
        assert_eq!(
            fresh(2, &mut next, used.len(), |i| used.contains(&i)),
            [3, 5]
        );
        assert_eq!(next, 5);
    }

    #[test]
    fn exhaustion_gives_fewer_names() {
        let mut next = 7;
        assert!(fresh(3, &mut next, u32::MAX as usize, |_| true).is_empty());
        assert_eq!(next, 7);
        // One name left: found even though it lies behind the counter.
        let mut next = u32::MAX - 2;
        assert_eq!(fresh(3, &mut next, u32::MAX as usize - 1, |i| i != 5), [5]);
    }

    #[test]
    fn gen_never_returns_a_bound_name_or_zero() {
        use crate::{gl, Context};
        let mut ctx = Context::new(4, 4).unwrap();
        // Bound without being generated, as examples/triangle.rs does.
        ctx.bind_program(gl::VERTEX_PROGRAM_ARB, 1).unwrap();
        ctx.bind_program(gl::FRAGMENT_PROGRAM_ARB, 2).unwrap();
        let p = ctx.gen_programs(2).unwrap();
        assert!(
            !p.contains(&1) && !p.contains(&2) && !p.contains(&0),
            "{p:?}"
        );
        ctx.bind_program(gl::VERTEX_PROGRAM_ARB, u32::MAX).unwrap();
        let p2 = ctx.gen_programs(3).unwrap();
        assert!(p2
            .iter()
            .all(|i| ![0, 1, 2, u32::MAX].contains(i) && !p.contains(i)));

        ctx.bind_buffer(gl::ARRAY_BUFFER, u32::MAX).unwrap();
        let b = ctx.gen_buffers(2).unwrap();
        assert!(
            !b.contains(&0) && !b.contains(&u32::MAX) && b[0] != b[1],
            "{b:?}"
        );
        assert!(ctx.gen_buffers(1).unwrap()[0] > b[1]);

        ctx.bind_texture(gl::TEXTURE_2D, 1).unwrap();
        ctx.bind_texture(gl::TEXTURE_2D, u32::MAX).unwrap();
        let t = ctx.gen_textures(2).unwrap();
        assert!(t.iter().all(|i| ![0, 1, u32::MAX].contains(i)), "{t:?}");

        ctx.bind_renderbuffer(gl::RENDERBUFFER, u32::MAX).unwrap();
        let r = ctx.gen_renderbuffers(1).unwrap();
        assert!(r[0] != 0 && r[0] != u32::MAX);
        ctx.bind_framebuffer(gl::FRAMEBUFFER, u32::MAX).unwrap();
        let f = ctx.gen_framebuffers(1).unwrap();
        assert!(f[0] != 0 && f[0] != u32::MAX);

        for ids in [
            ctx.gen_queries(3).unwrap(),
            ctx.gen_samplers(3).unwrap(),
            ctx.gen_vertex_arrays(3).unwrap(),
            ctx.gen_transform_feedbacks(3).unwrap(),
        ] {
            assert!(
                !ids.contains(&0) && ids[0] != ids[1] && ids[1] != ids[2],
                "{ids:?}"
            );
        }
    }

    type Gen = fn(&mut crate::Context, usize) -> crate::error::Result<Vec<u32>>;

    /// Every `gen_*`, by object type.
    const GENS: [(&str, Gen); 9] = [
        ("buffers", crate::Context::gen_buffers),
        ("textures", crate::Context::gen_textures),
        ("programs", crate::Context::gen_programs),
        ("queries", crate::Context::gen_queries),
        ("samplers", crate::Context::gen_samplers),
        ("vertex arrays", crate::Context::gen_vertex_arrays),
        (
            "transform feedbacks",
            crate::Context::gen_transform_feedbacks,
        ),
        ("renderbuffers", crate::Context::gen_renderbuffers),
        ("framebuffers", crate::Context::gen_framebuffers),
    ];

    /// More names than are free, or more objects than memory holds, are `OUT_OF_MEMORY`
    /// without a panic or an abort, and the context goes on handing out names.
    #[test]
    fn exhaustion_is_out_of_memory_for_every_object_type() {
        use crate::GlError;
        let mut ctx = crate::Context::new(4, 4).unwrap();
        for (what, gen) in GENS {
            let before = gen(&mut ctx, 1).unwrap();
            for n in [usize::MAX, u32::MAX as usize, u32::MAX as usize - 2] {
                let e = gen(&mut ctx, n).unwrap_err();
                assert_eq!(e.gl, GlError::OutOfMemory, "{what} {n}: {e}");
            }
            let after = gen(&mut ctx, 2).unwrap();
            assert!(
                after.iter().all(|i| *i != 0 && !before.contains(i)) && after[0] != after[1],
                "{what}: {before:?} then {after:?}"
            );
            assert!(gen(&mut ctx, 0).unwrap().is_empty());
        }
    }
}
