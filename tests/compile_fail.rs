//! The contract builder's forbidden states do not compile, each with a short, specific
//! message (`#[diagnostic::on_unimplemented]`), pinned in `tests/ui/*.stderr`.
//!
//! After a deliberate change of a message, regenerate with
//! `TRYBUILD=overwrite cargo test --test compile_fail` and review the diff.
//!
//! trybuild builds these cases (`cargo build`, since some must pass); that `cargo check`
//! reports a `route!` mismatch too is `tests/route_check.rs`'s test.

#[test]
fn forbidden_contracts_do_not_compile() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/get_with_body.rs");
    t.compile_fail("tests/ui/params_on_static_route.rs");
    t.compile_fail("tests/ui/params_twice.rs");
    t.compile_fail("tests/ui/query_twice.rs");
    t.compile_fail("tests/ui/headers_twice.rs");
    t.compile_fail("tests/ui/body_twice.rs");
    t.compile_fail("tests/ui/response_twice.rs");
    t.compile_fail("tests/ui/errors_twice.rs");
    t.compile_fail("tests/ui/errors_not_an_answer.rs");
    t.compile_fail("tests/ui/body_without_validate.rs");
    t.compile_fail("tests/ui/pattern_without_params.rs");
    t.compile_fail("tests/ui/dynamic_without_params.rs");
    // A `route!` literal's names against the params type's fields.
    t.compile_fail("tests/ui/route_params_mismatch.rs");
    t.compile_fail("tests/ui/route_params_rename_all.rs");
    t.compile_fail("tests/ui/route_params_without_derive.rs");
    t.compile_fail("tests/ui/route_malformed.rs");
    t.compile_fail("tests/ui/params_derive_flatten.rs");
    t.compile_fail("tests/ui/handler_wrong_return.rs");
    t.compile_fail("tests/ui/handler_not_async.rs");
    // Mistakes whose message names the fix (issue 28, item 5).
    t.compile_fail("tests/ui/route_str.rs");
    t.compile_fail("tests/ui/body_other_validator.rs");
    t.compile_fail("tests/ui/serve_warp_filter.rs");
    // `bind`: the function's bound values are what was bound, in order.
    t.compile_fail("tests/ui/bind_unprovided.rs");
    t.compile_fail("tests/ui/bind_wrong_order.rs");
    t.compile_fail("tests/ui/bind_seven.rs");
    t.compile_fail("tests/ui/bind_state_not_clone.rs");
    t.pass("tests/ui/valid_chain.rs");
    t.pass("tests/ui/bind_valid.rs");
    t.pass("tests/ui/route_params_fit.rs");
}
