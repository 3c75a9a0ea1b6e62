//! Method markers: the contract's method is part of its type, so a GET cannot have a body.

use http::Method;

mod sealed {
    pub trait Sealed {}
    /// The methods that may carry a body (see [`AllowsBody`](super::AllowsBody)).
    pub trait WithBody {}
}

/// A method a contract can be declared with.
pub trait ContractMethod: sealed::Sealed {
    /// The HTTP method.
    const METHOD: Method;
}

/// Methods whose requests may carry a body: POST, PUT, PATCH and DELETE.
#[diagnostic::on_unimplemented(
    message = "a GET endpoint cannot declare a request body: remove `.body::<T>()`",
    label = "a GET endpoint",
    note = "send the data of a GET as `.query::<T>()`; POST, PUT, PATCH and DELETE take a body"
)]
pub trait AllowsBody: ContractMethod {}

// A blanket impl marked `do_not_recommend`: a GET reports `AllowsBody`'s message alone, without
// a list of the methods that implement it.
#[diagnostic::do_not_recommend]
impl<M: ContractMethod + sealed::WithBody> AllowsBody for M {}

macro_rules! methods {
    ($($(#[$doc:meta])* $name:ident = $method:ident $(, $body:ident)?;)*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy)]
        pub struct $name;
        impl sealed::Sealed for $name {}
        impl ContractMethod for $name {
            const METHOD: Method = Method::$method;
        }
        $(impl sealed::$body for $name {})?
    )*};
}

methods! {
    /// `GET`: no body. HEAD is answered for every GET route.
    Get = GET;
    /// `POST`: answers 201 on success unless another status is declared.
    Post = POST, WithBody;
    /// `PUT`.
    Put = PUT, WithBody;
    /// `PATCH`.
    Patch = PATCH, WithBody;
    /// `DELETE`.
    Delete = DELETE, WithBody;
}
