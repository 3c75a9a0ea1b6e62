//! Method markers: the contract's method is part of its type, so a GET cannot have a body.

use http::Method;

mod sealed {
    pub trait Sealed {}
}

/// A method a contract can be declared with.
pub trait ContractMethod: sealed::Sealed {
    /// The HTTP method.
    const METHOD: Method;
}

/// Methods whose requests may carry a body: POST, PUT, PATCH and DELETE.
#[diagnostic::on_unimplemented(
    message = "a GET endpoint cannot declare a request body",
    label = "`.body::<T>()` is only offered for POST, PUT, PATCH and DELETE",
    note = "pass the data of a GET as `.query::<T>()` instead"
)]
pub trait AllowsBody: ContractMethod {}

macro_rules! methods {
    ($($(#[$doc:meta])* $name:ident = $method:ident $(, $body:ident)?;)*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy)]
        pub struct $name;
        impl sealed::Sealed for $name {}
        impl ContractMethod for $name {
            const METHOD: Method = Method::$method;
        }
        $(impl $body for $name {})?
    )*};
}

methods! {
    /// `GET`: no body. HEAD is answered for every GET route.
    Get = GET;
    /// `POST`: answers 201 on success unless another status is declared.
    Post = POST, AllowsBody;
    /// `PUT`.
    Put = PUT, AllowsBody;
    /// `PATCH`.
    Patch = PATCH, AllowsBody;
    /// `DELETE`.
    Delete = DELETE, AllowsBody;
}
