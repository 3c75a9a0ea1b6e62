//! The bindings of a [`Binder`](super::Binder)(super::Binder): what [`bind`](super::bind) keeps of each bound
//! value ([`FromState`], [`FromProvider`]), and the tuples of them, up to six.

use std::any::{type_name, TypeId};
use std::fmt;
use std::marker::PhantomData;

use http::Extensions;

use crate::error::{Error, HttpError};
use crate::middleware::Provided;

/// A provider's value that was not in the request: the handler was called without its
/// provider (by [`Handler::execute`](crate::handler::Handler::execute) without [`Ctx::with_provided`](crate::Ctx::with_provided)). Not an API.
#[doc(hidden)]
#[derive(Debug)]
pub struct NotProvided(&'static str);

impl fmt::Display for NotProvided {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the handler's function needs a `{}` that no provider made for this request",
            self.0
        )
    }
}

impl std::error::Error for NotProvided {}

impl NotProvided {
    /// The 500 it is answered with; the missing type is named in the log and the error's
    /// source, not in the answer.
    pub(super) fn into_error(self) -> Error {
        let missing = self;
        tracing::error!(%missing, "a bound value is missing");
        HttpError::internal("Internal server error")
            .with_source(missing)
            .into()
    }
}

/// What [`Binder::state`](super::Binder::state) binds: a value that is `Clone + Send + Sync + 'static`, cloned for
/// each request. Implemented for every such type; here for its compiler message.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be bound as state: state must be `Clone + Send + Sync + 'static`",
    label = "cloned for each request, from any thread",
    note = "share it through an `Arc` (`Arc<Mutex<_>>` to change it): `.state(Arc::new(value))`"
)]
pub trait StateValue: Clone + Send + Sync + 'static {}

// `do_not_recommend`: a type that is not `Clone` (or `Send`, `Sync`) reports the message above.
#[diagnostic::do_not_recommend]
impl<S: Clone + Send + Sync + 'static> StateValue for S {}

/// A bound value of the application, cloned for each request: [`Binder::state`](super::Binder::state).
pub struct FromState<S>(pub(super) S);

/// A value a [`Provider<T>`](crate::middleware::Provider) makes for each request: [`Binder::provide`](super::Binder::provide).
pub struct FromProvider<T>(pub(super) PhantomData<fn() -> T>);

impl<S> fmt::Debug for FromState<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FromState<{}>", type_name::<S>())
    }
}

impl<T> fmt::Debug for FromProvider<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FromProvider<{}>", type_name::<T>())
    }
}

mod sealed {
    pub trait Sealed {}
}

/// One binding: [`FromState`] or [`FromProvider`]. Sealed.
pub trait Binding: sealed::Sealed + Send + Sync + 'static {
    /// What the function receives for it.
    type Value;

    /// The value for one request: the state's clone, or the provider's value taken out of the
    /// request's extensions — cloned instead when `keep` (a later binding of the handler wants
    /// the same type).
    #[doc(hidden)]
    fn take(&self, extensions: &mut Extensions, keep: bool) -> Result<Self::Value, NotProvided>;

    /// The key a provider's value travels under; `None` for state.
    #[doc(hidden)]
    fn provided(&self) -> Option<TypeId>;
}

impl<S> sealed::Sealed for FromState<S> {}
impl<S: StateValue> Binding for FromState<S> {
    type Value = S;

    fn take(&self, _: &mut Extensions, _: bool) -> Result<S, NotProvided> {
        Ok(self.0.clone())
    }

    fn provided(&self) -> Option<TypeId> {
        None
    }
}

impl<T> sealed::Sealed for FromProvider<T> {}
impl<T: Clone + Send + Sync + 'static> Binding for FromProvider<T> {
    type Value = T;

    fn take(&self, extensions: &mut Extensions, keep: bool) -> Result<T, NotProvided> {
        let value = if keep {
            extensions
                .get::<Provided<T>>()
                .map(|provided| provided.0.clone())
        } else {
            extensions
                .remove::<Provided<T>>()
                .map(|provided| provided.0)
        };
        value.ok_or(NotProvided(type_name::<T>()))
    }

    fn provided(&self) -> Option<TypeId> {
        Some(TypeId::of::<Provided<T>>())
    }
}

/// The bindings of a [`Binder`](super::Binder): a tuple of up to six [`Binding`]s. Sealed.
pub trait Bindings: sealed::Sealed + Send + Sync + 'static {
    /// The tuple the function receives: each binding's value, in order.
    type Values;

    /// The values for one request. Bit `i` of `keep` set: the `i`th value is cloned out of the
    /// extensions rather than moved ([`Bindings::keep`]).
    #[doc(hidden)]
    fn take(&self, extensions: &mut Extensions, keep: u8) -> Result<Self::Values, NotProvided>;

    /// Which provided values to clone rather than move, once, when the handler is made: each
    /// one whose type a later binding asks for too (`.provide(a).provide(a)`), so that each of
    /// them gets the value. Zero unless a type is provided twice.
    #[doc(hidden)]
    fn keep(&self) -> u8;
}

/// Appends a binding to the bindings of a [`Binder`](super::Binder): implemented for up to five, so a
/// handler binds at most six values (group state in one struct to bind more). Sealed.
pub trait Append<X>: sealed::Sealed {
    /// The bindings with `X` last.
    type Output;

    /// `self` with `x` last.
    #[doc(hidden)]
    fn append(self, x: X) -> Self::Output;
}

macro_rules! bindings {
    ($(($($name:ident),*))*) => {$(
        impl<$($name),*> sealed::Sealed for ($($name,)*) {}

        impl<$($name: Binding),*> Bindings for ($($name,)*) {
            type Values = ($($name::Value,)*);

            #[allow(non_snake_case, unused_variables, unused_mut, unused_assignments)]
            fn take(&self, extensions: &mut Extensions, keep: u8) -> Result<Self::Values, NotProvided> {
                let ($($name,)*) = self;
                let mut index = 0;
                // A tuple's fields are evaluated left to right: `index` is each one's position.
                Ok(($({
                    let value = $name.take(extensions, keep & (1 << index) != 0)?;
                    index += 1;
                    value
                },)*))
            }

            #[allow(non_snake_case)]
            fn keep(&self) -> u8 {
                let ($($name,)*) = self;
                let provided: &[Option<TypeId>] = &[$($name.provided()),*];
                let mut keep = 0;
                for (index, key) in provided.iter().enumerate() {
                    if key.is_some() && provided[index + 1..].contains(key) {
                        keep |= 1 << index;
                    }
                }
                keep
            }
        }
    )*};
}

bindings! {
    ()
    (A)
    (A, B)
    (A, B, C)
    (A, B, C, D)
    (A, B, C, D, E)
    (A, B, C, D, E, F)
}

macro_rules! append {
    ($(($($name:ident),*))*) => {$(
        impl<$($name,)* X> Append<X> for ($($name,)*) {
            type Output = ($($name,)* X,);

            #[allow(non_snake_case)]
            fn append(self, x: X) -> Self::Output {
                let ($($name,)*) = self;
                ($($name,)* x,)
            }
        }
    )*};
}

append! {
    ()
    (A)
    (A, B)
    (A, B, C)
    (A, B, C, D)
    (A, B, C, D, E)
}
