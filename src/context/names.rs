//! Object names for every `gen_*`: an app may bind a name it never generated (GL creates
//! the object on bind), so a counter alone would hand out names already in use, and wrap
//! to 0 after `u32::MAX`.

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
        let p = ctx.gen_programs(2);
        assert!(
            !p.contains(&1) && !p.contains(&2) && !p.contains(&0),
            "{p:?}"
        );
        ctx.bind_program(gl::VERTEX_PROGRAM_ARB, u32::MAX).unwrap();
        let p2 = ctx.gen_programs(3);
        assert!(p2
            .iter()
            .all(|i| ![0, 1, 2, u32::MAX].contains(i) && !p.contains(i)));

        ctx.bind_buffer(gl::ARRAY_BUFFER, u32::MAX).unwrap();
        let b = ctx.gen_buffers(2);
        assert!(
            !b.contains(&0) && !b.contains(&u32::MAX) && b[0] != b[1],
            "{b:?}"
        );
        assert!(ctx.gen_buffers(1)[0] > b[1]);

        ctx.bind_texture(gl::TEXTURE_2D, 1).unwrap();
        ctx.bind_texture(gl::TEXTURE_2D, u32::MAX).unwrap();
        let t = ctx.gen_textures(2);
        assert!(t.iter().all(|i| ![0, 1, u32::MAX].contains(i)), "{t:?}");

        ctx.bind_renderbuffer(gl::RENDERBUFFER, u32::MAX).unwrap();
        let r = ctx.gen_renderbuffers(1);
        assert!(r[0] != 0 && r[0] != u32::MAX);
        ctx.bind_framebuffer(gl::FRAMEBUFFER, u32::MAX).unwrap();
        let f = ctx.gen_framebuffers(1);
        assert!(f[0] != 0 && f[0] != u32::MAX);

        for ids in [
            ctx.gen_queries(3),
            ctx.gen_samplers(3),
            ctx.gen_vertex_arrays(3),
            ctx.gen_transform_feedbacks(3),
        ] {
            assert!(
                !ids.contains(&0) && ids[0] != ids[1] && ids[1] != ids[2],
                "{ids:?}"
            );
        }
    }
}
