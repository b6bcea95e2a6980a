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
