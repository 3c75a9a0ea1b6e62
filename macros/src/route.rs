//! `route!`: a route literal parsed and checked while compiling, with the rules of
//! `pactum::route::RouteTemplate::parse` (which still runs when the contract is built).

use proc_macro2::TokenStream;
use quote::quote;
use syn::LitStr;

/// The kind of route a literal is, read from its segments.
enum Kind {
    Static,
    Pattern,
    Dynamic,
}

pub(crate) fn expand(input: TokenStream) -> syn::Result<TokenStream> {
    let literal: LitStr = syn::parse2(input).map_err(|e| {
        syn::Error::new(
            e.span(),
            "`route!` takes one string literal: `route!(\"/users/:id\")`",
        )
    })?;
    let path = literal.value();
    let (kind, names) = parse(&path).map_err(|reason| {
        syn::Error::new(literal.span(), format!("invalid route `{path}`: {reason}"))
    })?;
    let constructor = match kind {
        Kind::Static => return Ok(quote! { ::pactum::route::static_path(#literal) }),
        Kind::Pattern => quote! { ::pactum::route::Pattern },
        Kind::Dynamic => quote! { ::pactum::route::Dynamic },
    };
    // A type of its own per literal: the route's names travel in the route's type, so that
    // `.params::<T>()` can require them to be `T`'s fields (a trait bound: `cargo check`
    // reports a mismatch).
    let names = crate::names_type(&names);
    Ok(quote! {{
        #[allow(non_camel_case_types)]
        enum route {}
        impl ::pactum::route::RouteLiteral for route {
            const PATH: &'static str = #literal;
            type Names = #names;
        }
        #constructor::<route>::__literal()
    }})
}

/// The kind and the param names of `path`, or why it is not a route.
fn parse(path: &str) -> Result<(Kind, Vec<String>), String> {
    let Some(rest) = path.strip_prefix('/') else {
        return Err("a route must start with `/`".to_owned());
    };
    let pieces: Vec<&str> = if rest.is_empty() {
        Vec::new()
    } else {
        rest.split('/').collect()
    };
    let mut names: Vec<String> = Vec::new();
    let mut has_params = false;
    let mut has_catch_all = false;
    for (index, piece) in pieces.iter().enumerate() {
        // `{name}` and `{*name}` (axum 0.8's and OpenAPI's spelling) mean `:name` and `*name`.
        let braced = piece
            .strip_prefix('{')
            .and_then(|inner| inner.strip_suffix('}'));
        if braced.is_none() && piece.contains(['{', '}']) {
            return Err("a param in braces is a whole segment: `{name}` or `{*name}`".to_owned());
        }
        let (name, catch_all) = match braced {
            Some(inner) => match inner.strip_prefix('*') {
                Some(name) => (name, true),
                None => (inner, false),
            },
            None => match (piece.strip_prefix(':'), piece.strip_prefix('*')) {
                (Some(name), _) => (name, false),
                (None, Some(name)) => (name, true),
                (None, None) => continue,
            },
        };
        if catch_all {
            if index + 1 != pieces.len() {
                return Err("a catch-all `*name` must be the last segment".to_owned());
            }
            has_catch_all = true;
        } else {
            has_params = true;
        }
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err("a param name must be non-empty ASCII letters, digits or `_`".to_owned());
        }
        if names.iter().any(|n| n == name) {
            return Err(format!("the param name `{name}` is repeated"));
        }
        names.push(name.to_owned());
    }
    let kind = if has_catch_all {
        Kind::Dynamic
    } else if has_params {
        Kind::Pattern
    } else {
        Kind::Static
    };
    Ok((kind, names))
}
