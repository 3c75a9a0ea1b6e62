//! Compile-fail tests: the typestate guarantees of `Call`, with their compiler messages.
//!
//! The `.stderr` files are rustc's output on the pinned stable toolchain; regenerate them with
//! `TRYBUILD=overwrite cargo test -p pactum-client --test ui` and review the diff.

#[test]
fn typestate_messages() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
