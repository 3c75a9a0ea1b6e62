//! `#[derive(Params)]`: a struct's field names as serde deserialises them, as one type.

use proc_macro2::TokenStream;
use quote::quote;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, Data, DeriveInput, Fields, LitStr, Token};

pub(crate) fn expand(input: DeriveInput) -> syn::Result<TokenStream> {
    let Data::Struct(data) = &input.data else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "`Params` needs a struct with named fields, one per route param",
        ));
    };
    let Fields::Named(fields) = &data.fields else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "`Params` needs a struct with named fields, one per route param",
        ));
    };
    let container = Serde::read(&input.attrs)?;
    let rule = match &container.rename_all {
        Some(lit) => Some(RenameRule::parse(lit)?),
        None => None,
    };
    let mut names = Vec::new();
    for field in &fields.named {
        let serde = Serde::read(&field.attrs)?;
        if serde.skip {
            continue;
        }
        if let Some(flatten) = serde.flatten {
            return Err(syn::Error::new(
                flatten,
                "`Params` cannot list the names of a `#[serde(flatten)]` field: declare the route \
                 with `route::pattern(..)` or `route::dynamic(..)`, whose names `build()` checks",
            ));
        }
        let ident = field.ident.as_ref().expect("named fields have names");
        let name = match (serde.rename, rule) {
            (Some(rename), _) => rename.value(),
            (None, Some(rule)) => rule.apply(&unraw(ident)),
            (None, None) => unraw(ident),
        };
        names.push(name);
    }
    let ident = &input.ident;
    let names = crate::names_type(&names);
    let (impl_generics, type_generics, where_clause) = input.generics.split_for_impl();
    Ok(quote! {
        impl #impl_generics ::pactum::route::ParamNames for #ident #type_generics #where_clause {
            type Names = #names;
        }
    })
}

fn unraw(ident: &syn::Ident) -> String {
    let name = ident.to_string();
    match name.strip_prefix("r#") {
        Some(raw) => raw.to_owned(),
        None => name,
    }
}

/// What `#[serde(..)]` says about the names, on a container or a field.
#[derive(Default)]
struct Serde {
    /// `rename = ".."` or `rename(deserialize = "..")`.
    rename: Option<LitStr>,
    /// `rename_all = ".."` or `rename_all(deserialize = "..")`.
    rename_all: Option<LitStr>,
    /// `skip` or `skip_deserializing`: not read from the route.
    skip: bool,
    /// `flatten`: names unknown here.
    flatten: Option<proc_macro2::Span>,
}

impl Serde {
    fn read(attrs: &[Attribute]) -> syn::Result<Self> {
        let mut serde = Self::default();
        for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("rename") {
                    serde.rename = deserialize_name(&meta)?.or(serde.rename.take());
                } else if meta.path.is_ident("rename_all") {
                    serde.rename_all = deserialize_name(&meta)?.or(serde.rename_all.take());
                } else if meta.path.is_ident("skip") || meta.path.is_ident("skip_deserializing") {
                    serde.skip = true;
                } else if meta.path.is_ident("flatten") {
                    serde.flatten = Some(meta.path.span());
                } else {
                    skip_value(&meta)?;
                }
                Ok(())
            })?;
        }
        Ok(serde)
    }
}

/// The deserialising name of `rename = ".."` / `rename(serialize = "..", deserialize = "..")`.
fn deserialize_name(meta: &ParseNestedMeta<'_>) -> syn::Result<Option<LitStr>> {
    if meta.input.peek(Token![=]) {
        return meta.value()?.parse().map(Some);
    }
    let mut name = None;
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("deserialize") {
            name = Some(inner.value()?.parse()?);
        } else {
            skip_value(&inner)?;
        }
        Ok(())
    })?;
    Ok(name)
}

/// Consumes the value of a serde attribute this derive does not read (`= ..` or `(..)`).
fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        let value = meta.value()?;
        while !value.is_empty() && !value.peek(Token![,]) {
            value.parse::<proc_macro2::TokenTree>()?;
        }
    } else if meta.input.peek(syn::token::Paren) {
        meta.input.parse::<proc_macro2::Group>()?;
    }
    Ok(())
}

/// serde's `rename_all` rules, applied to a field name as serde applies them.
#[derive(Clone, Copy)]
enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

impl RenameRule {
    fn parse(lit: &LitStr) -> syn::Result<Self> {
        Ok(match lit.value().as_str() {
            "lowercase" => Self::Lower,
            "UPPERCASE" => Self::Upper,
            "PascalCase" => Self::Pascal,
            "camelCase" => Self::Camel,
            "snake_case" => Self::Snake,
            "SCREAMING_SNAKE_CASE" => Self::ScreamingSnake,
            "kebab-case" => Self::Kebab,
            "SCREAMING-KEBAB-CASE" => Self::ScreamingKebab,
            other => {
                return Err(syn::Error::new(
                    lit.span(),
                    format!("unknown `rename_all` rule `{other}`"),
                ))
            }
        })
    }

    fn apply(self, field: &str) -> String {
        match self {
            Self::Lower | Self::Snake => field.to_owned(),
            Self::Upper | Self::ScreamingSnake => field.to_ascii_uppercase(),
            Self::Pascal => {
                let mut pascal = String::with_capacity(field.len());
                let mut capitalize = true;
                for ch in field.chars() {
                    if ch == '_' {
                        capitalize = true;
                    } else if capitalize {
                        pascal.push(ch.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        pascal.push(ch);
                    }
                }
                pascal
            }
            Self::Camel => {
                let pascal = Self::Pascal.apply(field);
                let mut chars = pascal.chars();
                match chars.next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => pascal,
                }
            }
            Self::Kebab => field.replace('_', "-"),
            Self::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RenameRule;

    #[test]
    fn rename_rules_match_serde() {
        let cases = [
            (RenameRule::Lower, "user_id", "user_id"),
            (RenameRule::Upper, "user_id", "USER_ID"),
            (RenameRule::Pascal, "user_id", "UserId"),
            (RenameRule::Camel, "user_id", "userId"),
            (RenameRule::Snake, "user_id", "user_id"),
            (RenameRule::ScreamingSnake, "user_id", "USER_ID"),
            (RenameRule::Kebab, "user_id", "user-id"),
            (RenameRule::ScreamingKebab, "user_id", "USER-ID"),
        ];
        for (rule, field, expected) in cases {
            assert_eq!(rule.apply(field), expected);
        }
    }
}
