#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code may panic
mod exec_util;
use exec_util::*;

#[test]
fn add_constant_to_color() {
    let r = frag1(
        "!!NVfp4.0\nTEMP R0;\nMOV R0, {1,2,3,4};\nADD result.color, R0, fragment.color;\nEND\n",
        [0.5, 0.5, 0.5, 0.5],
    );
    assert_eq!(r, [1.5, 2.5, 3.5, 4.5]);
}

#[test]
fn executor_and_state_can_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<glemu_programs::exec::Executor>();
    send_sync::<glemu_programs::exec::LaneState>();
    // And a shared executor runs on several threads at once.
    let p = assemble(
        "!!NVfp4.0\nMUL result.color, fragment.color, 2;\nEND\n",
        glemu_programs::ir::Stage::Fragment,
    );
    let ex = std::sync::Arc::new(glemu_programs::exec::Executor::new(p.clone()));
    let handles: Vec<_> = (0..3)
        .map(|t| {
            let ex = ex.clone();
            let p = p.clone();
            std::thread::spawn(move || {
                let mut st = glemu_programs::exec::LaneState::new(&p, 16);
                for l in 0..16 {
                    st.set_input_f32(0, l, [(t * 16 + l) as f32; 4]);
                }
                ex.run(&mut st, 0xffff, &params(&p, &[]), &mut TestEnv::default())
                    .expect("run");
                st.output_f32(0, 15)[0]
            })
        })
        .collect();
    let got: Vec<f32> = handles
        .into_iter()
        .map(|h| h.join().expect("join"))
        .collect();
    assert_eq!(got, vec![30.0, 62.0, 94.0]);
}
