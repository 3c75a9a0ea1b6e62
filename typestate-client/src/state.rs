//! The typestate of a [`Call`](crate::Call): the states of its parts, and the bounds its
//! methods put on them. Each bound's `#[diagnostic::on_unimplemented]` message names the fix
//! when a call is misused; these names show in types and compiler messages, and code rarely
//! writes them.

use pactum::{contract::state::Absent, contract::state::Declared};

/// The state of a call part that has been given (`.params(..)`, `.query(..)`, `.body(..)`,
/// `.header_params(..)` or `.cookie_params(..)` was called).
///
/// The other states are pactum's [`Declared`] (the contract declares the part: it must still
/// be given, or for a query with a `Default`, may be) and [`Absent`] (the contract declares
/// none: nothing to give).
#[derive(Debug)]
pub enum Provided {}

mod sealed {
    pub trait Sealed {}
    impl Sealed for pactum::contract::state::Absent {}
    impl Sealed for pactum::contract::state::Declared {}
    impl Sealed for super::Provided {}

    /// Ready to send: given, or not declared by the contract.
    pub trait Ready {}
    impl Ready for pactum::contract::state::Absent {}
    impl Ready for super::Provided {}

    /// Declared by the contract: still to give, or given.
    pub trait InContract {}
    impl InContract for pactum::contract::state::Declared {}
    impl InContract for super::Provided {}

    /// Not given yet: declared, or not in the contract.
    pub trait NotGiven {}
    impl NotGiven for pactum::contract::state::Declared {}
    impl NotGiven for pactum::contract::state::Absent {}

    /// The value `.params(..)`, `.query(..)` or `.body(..)` takes in this state: the
    /// contract's type `T` where the part is declared, anything where it is not. The method is
    /// generic over its argument `A` so that a part the contract does not declare reports
    /// `HasParams`' (`HasQuery`'s, `HasBody`'s) message alone, and not a second "mismatched
    /// types" against the empty marker (`NoParams`, `NoQuery`, `NoBody`). Where the part is
    /// declared, the one impl makes `A` the contract's type.
    #[diagnostic::on_unimplemented(
        message = "this call takes the contract's type `{T}` here, not `{A}`",
        label = "expected `{T}`"
    )]
    pub trait Given<T, A> {
        /// The value to keep (`None` where the contract declares no such part: the method
        /// does not compile there).
        fn given(value: A) -> Option<T>;
    }
    #[diagnostic::do_not_recommend]
    impl<T> Given<T, T> for pactum::contract::state::Declared {
        fn given(value: T) -> Option<T> {
            Some(value)
        }
    }
    #[diagnostic::do_not_recommend]
    impl<T> Given<T, T> for super::Provided {
        fn given(value: T) -> Option<T> {
            Some(value)
        }
    }
    #[diagnostic::do_not_recommend]
    impl<T, A> Given<T, A> for pactum::contract::state::Absent {
        fn given(_: A) -> Option<T> {
            None
        }
    }
}

pub(crate) use sealed::Given;

// Each trait below is implemented by a blanket impl over a sealed trait, marked
// `#[diagnostic::do_not_recommend]`: a failing bound reports the trait's own message, naming
// the fix, without a list of the states that implement it.

/// The params of a call are ready: given, or not declared by the contract.
///
/// A bound of [`Call::send`](crate::Call::send); implemented for [`Provided`] and [`Absent`].
#[diagnostic::on_unimplemented(
    message = "this route has path parameters: call `.params(..)` before `.send()`",
    label = "the params are missing",
    note = "the contract declares a params type for its `:name` / `*name` segments"
)]
pub trait ParamsReady: sealed::Sealed {}
#[diagnostic::do_not_recommend]
impl<S: sealed::Sealed + sealed::Ready> ParamsReady for S {}

/// The body of a call is ready: given, or not declared by the contract.
///
/// A bound of [`Call::send`](crate::Call::send); implemented for [`Provided`] and [`Absent`].
#[diagnostic::on_unimplemented(
    message = "this endpoint declares a request body: call `.body(..)` before `.send()`",
    label = "the body is missing",
    note = "the contract declares a JSON body type with `.body::<T>()`"
)]
pub trait BodyReady: sealed::Sealed {}
#[diagnostic::do_not_recommend]
impl<S: sealed::Sealed + sealed::Ready> BodyReady for S {}

/// The query of a call is ready: given, not declared by the contract, or of a type that
/// implements `Default` — then the default is sent.
///
/// A bound of [`Call::send`](crate::Call::send); implemented for [`Provided`] and [`Absent`]
/// whatever `Q`, and for [`Declared`] when `Q: Default`.
#[diagnostic::on_unimplemented(
    message = "the query type `{Q}` has no `Default`: call `.query(..)` before `.send()`",
    label = "the query is missing",
    note = "to send `{Q}::default()` when `.query(..)` is left out, derive or implement `Default` for `{Q}`"
)]
pub trait QueryReady<Q>: sealed::Sealed {
    /// The query to send when none was given: `Q::default()` for a declared query.
    #[doc(hidden)]
    fn default_query() -> Option<Q>;
}
#[diagnostic::do_not_recommend]
impl<Q> QueryReady<Q> for Absent {
    fn default_query() -> Option<Q> {
        None
    }
}
#[diagnostic::do_not_recommend]
impl<Q> QueryReady<Q> for Provided {
    fn default_query() -> Option<Q> {
        None
    }
}
#[diagnostic::do_not_recommend]
impl<Q: Default> QueryReady<Q> for Declared {
    fn default_query() -> Option<Q> {
        Some(Q::default())
    }
}

/// The contract declares params: `.params(..)` can be called. A bound of [`Call::params`](crate::Call::params).
#[diagnostic::on_unimplemented(
    message = "this endpoint has no path parameters: remove `.params(..)`",
    label = "the contract declares no params type"
)]
pub trait HasParams: sealed::Sealed {}
#[diagnostic::do_not_recommend]
impl<S: sealed::Sealed + sealed::InContract> HasParams for S {}

/// The contract declares a query: `.query(..)` can be called. A bound of [`Call::query`](crate::Call::query).
#[diagnostic::on_unimplemented(
    message = "this endpoint declares no query: remove `.query(..)`",
    label = "the contract has no query type"
)]
pub trait HasQuery: sealed::Sealed {}
#[diagnostic::do_not_recommend]
impl<S: sealed::Sealed + sealed::InContract> HasQuery for S {}

/// The contract declares a body: `.body(..)` can be called. A bound of [`Call::body`](crate::Call::body).
#[diagnostic::on_unimplemented(
    message = "this endpoint declares no request body: remove `.body(..)`",
    label = "the contract has no body type"
)]
pub trait HasBody: sealed::Sealed {}
#[diagnostic::do_not_recommend]
impl<S: sealed::Sealed + sealed::InContract> HasBody for S {}

/// The params are not given yet. A bound of [`Call::params`](crate::Call::params).
#[diagnostic::on_unimplemented(
    message = "the params are already given: remove the second `.params(..)`",
    label = "`.params(..)` is called once per call"
)]
pub trait ParamsNotGiven: sealed::Sealed {}
#[diagnostic::do_not_recommend]
impl<S: sealed::Sealed + sealed::NotGiven> ParamsNotGiven for S {}

/// The query is not given yet. A bound of [`Call::query`](crate::Call::query).
#[diagnostic::on_unimplemented(
    message = "the query is already given: remove the second `.query(..)`",
    label = "`.query(..)` is called once per call"
)]
pub trait QueryNotGiven: sealed::Sealed {}
#[diagnostic::do_not_recommend]
impl<S: sealed::Sealed + sealed::NotGiven> QueryNotGiven for S {}

/// The body is not given yet. A bound of [`Call::body`](crate::Call::body).
#[diagnostic::on_unimplemented(
    message = "the body is already given: remove the second `.body(..)`",
    label = "`.body(..)` is called once per call"
)]
pub trait BodyNotGiven: sealed::Sealed {}
#[diagnostic::do_not_recommend]
impl<S: sealed::Sealed + sealed::NotGiven> BodyNotGiven for S {}

/// The header params of a call are ready: given, not declared by the contract, or of a type
/// that implements `Default` (every header optional, say) — then the default is sent.
///
/// A bound of [`Call::send`](crate::Call::send); implemented for [`Provided`] and [`Absent`]
/// whatever `H`, and for [`Declared`] when `H: Default`.
#[diagnostic::on_unimplemented(
    message = "this endpoint declares header params `{H}`: call `.header_params(..)` before `.send()`",
    label = "the header params are missing",
    note = "to send `{H}::default()` when `.header_params(..)` is left out, derive or implement `Default` for `{H}`"
)]
pub trait HeaderParamsReady<H>: sealed::Sealed {
    /// The header params to send when none were given: `H::default()` for declared ones.
    #[doc(hidden)]
    fn default_header_params() -> Option<H>;
}
#[diagnostic::do_not_recommend]
impl<H> HeaderParamsReady<H> for Absent {
    fn default_header_params() -> Option<H> {
        None
    }
}
#[diagnostic::do_not_recommend]
impl<H> HeaderParamsReady<H> for Provided {
    fn default_header_params() -> Option<H> {
        None
    }
}
#[diagnostic::do_not_recommend]
impl<H: Default> HeaderParamsReady<H> for Declared {
    fn default_header_params() -> Option<H> {
        Some(H::default())
    }
}

/// The cookie params of a call are ready: given, not declared by the contract, or of a type
/// that implements `Default` — then the default is sent.
///
/// A bound of [`Call::send`](crate::Call::send); implemented for [`Provided`] and [`Absent`]
/// whatever `C`, and for [`Declared`] when `C: Default`.
#[diagnostic::on_unimplemented(
    message = "this endpoint declares cookie params `{C}`: call `.cookie_params(..)` before `.send()`",
    label = "the cookie params are missing",
    note = "to send `{C}::default()` when `.cookie_params(..)` is left out, derive or implement `Default` for `{C}`"
)]
pub trait CookieParamsReady<C>: sealed::Sealed {
    /// The cookie params to send when none were given: `C::default()` for declared ones.
    #[doc(hidden)]
    fn default_cookie_params() -> Option<C>;
}
#[diagnostic::do_not_recommend]
impl<C> CookieParamsReady<C> for Absent {
    fn default_cookie_params() -> Option<C> {
        None
    }
}
#[diagnostic::do_not_recommend]
impl<C> CookieParamsReady<C> for Provided {
    fn default_cookie_params() -> Option<C> {
        None
    }
}
#[diagnostic::do_not_recommend]
impl<C: Default> CookieParamsReady<C> for Declared {
    fn default_cookie_params() -> Option<C> {
        Some(C::default())
    }
}

/// The contract declares header params: `.header_params(..)` can be called. A bound of
/// [`Call::header_params`](crate::Call::header_params).
#[diagnostic::on_unimplemented(
    message = "this endpoint declares no header params: remove `.header_params(..)`",
    label = "the contract has no header params type"
)]
pub trait HasHeaderParams: sealed::Sealed {}
#[diagnostic::do_not_recommend]
impl<S: sealed::Sealed + sealed::InContract> HasHeaderParams for S {}

/// The contract declares cookie params: `.cookie_params(..)` can be called. A bound of
/// [`Call::cookie_params`](crate::Call::cookie_params).
#[diagnostic::on_unimplemented(
    message = "this endpoint declares no cookie params: remove `.cookie_params(..)`",
    label = "the contract has no cookie params type"
)]
pub trait HasCookieParams: sealed::Sealed {}
#[diagnostic::do_not_recommend]
impl<S: sealed::Sealed + sealed::InContract> HasCookieParams for S {}

/// The header params are not given yet. A bound of
/// [`Call::header_params`](crate::Call::header_params).
#[diagnostic::on_unimplemented(
    message = "the header params are already given: remove the second `.header_params(..)`",
    label = "`.header_params(..)` is called once per call"
)]
pub trait HeaderParamsNotGiven: sealed::Sealed {}
#[diagnostic::do_not_recommend]
impl<S: sealed::Sealed + sealed::NotGiven> HeaderParamsNotGiven for S {}

/// The cookie params are not given yet. A bound of
/// [`Call::cookie_params`](crate::Call::cookie_params).
#[diagnostic::on_unimplemented(
    message = "the cookie params are already given: remove the second `.cookie_params(..)`",
    label = "`.cookie_params(..)` is called once per call"
)]
pub trait CookieParamsNotGiven: sealed::Sealed {}
#[diagnostic::do_not_recommend]
impl<S: sealed::Sealed + sealed::NotGiven> CookieParamsNotGiven for S {}
