//! Compile-time checked routes for [pactum](https://docs.rs/pactum). Use these macros through
//! `pactum` (`pactum::route!`, `#[derive(pactum::Params)]`): the code they generate names
//! `::pactum` items.
//!
//! - `route!("/users/:id")` checks the route's syntax while compiling and picks its kind
//!   (static, pattern, or dynamic when it ends in a catch-all `*name`); for a route with
//!   params, it carries the route's names in the route's type, so that
//!   `.params::<T>()` compares them with `T`'s fields — a mismatch is a type error, which
//!   `cargo check` reports.
//! - `#[derive(Params)]` lists a struct's field names as serde deserialises them
//!   (`#[serde(rename)]`, `#[serde(rename_all)]` and `#[serde(skip)]` respected).
//!
//! Both write the names the same way, as one type (`names_type`).

use proc_macro::TokenStream;

mod params;
mod route;

/// A set of names as one type, for `pactum::route::{RouteLiteral, ParamNames}::Names`: sorted
/// (so that two sets in another order are the same type), each name a list of
/// `::pactum::route::Ch<'c'>` nested in pairs ending with `()`, and the names nested the same
/// way: `["id", "org"]` is `((Ch<'i'>, (Ch<'d'>, ())), ((Ch<'o'>, (..)), ()))`.
fn names_type(names: &[String]) -> proc_macro2::TokenStream {
    let mut sorted: Vec<&str> = names.iter().map(String::as_str).collect();
    sorted.sort_unstable();
    sorted
        .iter()
        .rev()
        .fold(quote::quote! { () }, |rest, name| {
            let name = name.chars().rev().fold(quote::quote! { () }, |rest, c| {
                quote::quote! { (::pactum::route::Ch<#c>, #rest) }
            });
            quote::quote! { (#name, #rest) }
        })
}

/// A route written as a literal, checked while compiling: `route!("/users/:id")`.
///
/// See `pactum::route!` for the documentation.
#[proc_macro]
pub fn route(input: TokenStream) -> TokenStream {
    route::expand(input.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Lists a struct's field names, as serde deserialises them, for the compile-time route check.
///
/// See `pactum::Params` for the documentation.
#[proc_macro_derive(Params, attributes(serde))]
pub fn derive_params(input: TokenStream) -> TokenStream {
    params::expand(syn::parse_macro_input!(input as syn::DeriveInput))
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

#[cfg(test)]
mod tests {
    use super::names_type;

    fn names(list: &[&str]) -> String {
        let list: Vec<String> = list.iter().map(|n| (*n).to_owned()).collect();
        names_type(&list).to_string().replace(' ', "")
    }

    #[test]
    fn a_name_is_its_characters_nested_in_pairs() {
        assert_eq!(
            names(&["id"]),
            "((::pactum::route::Ch<'i'>,(::pactum::route::Ch<'d'>,())),())"
        );
        assert_eq!(names(&[]), "()");
    }

    #[test]
    fn the_order_of_the_names_does_not_matter() {
        assert_eq!(names(&["repo", "org"]), names(&["org", "repo"]));
        assert_ne!(names(&["org", "repo"]), names(&["org", "name"]));
    }
}
