//! `on_every_adapter!`: runs a module's cases against every adapter, each on a fresh server.
//! `on_the_fixture!`: the same, against the conformance binary only.
//!
//! Each case is an `async fn(&TestServer)` of the invoking module; the same bodies run on the
//! native server, the warp filter on pactum's server and on warp's own, and the conformance
//! binary with each adapter.

macro_rules! on_every_adapter {
    ($($case:ident),* $(,)?) => {
        on_every_adapter!(@one native, crate::support::native; $($case),*);
        on_every_adapter!(@one warp, crate::support::warp; $($case),*);
        on_every_adapter!(@one warp_own_server, crate::support::warp_own_server; $($case),*);
        on_every_adapter!(@one fixture_native, crate::support::fixture_native; $($case),*);
        on_every_adapter!(@one fixture_warp, crate::support::fixture_warp; $($case),*);
    };
    (@one $adapter:ident, $spawn:path; $($case:ident),*) => {
        mod $adapter {
            $(
                #[tokio::test]
                async fn $case() {
                    let app = $spawn().await;
                    super::$case(&app).await;
                }
            )*
        }
    };
}

/// `on_the_fixture!`: runs a module's cases against the conformance binary, once per adapter,
/// each on a process of its own (so each case starts from an empty user list and creates the
/// state it needs).
macro_rules! on_the_fixture {
    ($($case:ident),* $(,)?) => {
        on_every_adapter!(@one native, crate::support::fixture_native; $($case),*);
        on_every_adapter!(@one warp, crate::support::fixture_warp; $($case),*);
    };
}
