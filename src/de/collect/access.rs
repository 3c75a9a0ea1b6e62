//! The seed and accesses that carry [`Collect`] to every element, entry and variant, each with
//! its path.

use std::cell::RefCell;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};

use super::key::CaptureKey;
use super::placeholder::Placeholder;
use super::wrap::{read, Collect, Kind};
use super::{message, Path, State};

/// A seed read through [`Collect`] at `path`; an error the seed raises after the reading
/// (serde's buffered `untagged` and `flatten` do) is recorded here.
pub(super) struct Seed<'p, S> {
    pub(super) seed: S,
    pub(super) path: &'p Path<'p>,
    pub(super) state: &'p State,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<'_, S> {
    type Value = S::Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        let (path, state) = (self.path, self.state);
        self.seed
            .deserialize(Collect::new(d, path, state))
            .inspect_err(|error| {
                if !state.handled.replace(true) {
                    state.record(path, message(error));
                }
            })
    }
}

pub(super) struct Items<'p, A> {
    pub(super) inner: A,
    pub(super) index: usize,
    pub(super) path: &'p Path<'p>,
    pub(super) state: &'p State,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Items<'_, A> {
    type Error = A::Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        let path = Path::Index(self.path, self.index);
        self.index += 1;
        self.inner.next_element_seed(Seed {
            seed,
            path: &path,
            state: self.state,
        })
    }
    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

pub(super) struct Entries<'p, A> {
    pub(super) inner: A,
    /// The key of the value to read next, as text.
    pub(super) key: Option<String>,
    /// The keys read so far (a missing field's placeholder is only fed once).
    pub(super) seen: Vec<String>,
    /// Fields of this struct that earlier readings found missing.
    pub(super) missing: Vec<&'static str>,
    /// The missing field whose placeholder is the next value.
    pub(super) placeholder_for: Option<&'static str>,
    pub(super) path: &'p Path<'p>,
    pub(super) state: &'p State,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Entries<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        let mut key = None;
        let seed = RefCell::new(Some(seed));
        let capture = CaptureKey {
            seed: &seed,
            key: &mut key,
        };
        let next = match self.inner.next_key_seed(capture) {
            Ok(next) => next,
            Err(error) => {
                if !self.state.handled.replace(true) {
                    let key = key.unwrap_or_default();
                    self.state
                        .record(&Path::Key(self.path, &key), message(&error));
                }
                return Err(error);
            }
        };
        if let Some(found) = next {
            if !self.missing.is_empty() {
                self.seen.push(key.clone().unwrap_or_default());
            }
            self.key = key;
            return Ok(Some(found));
        }
        // The document's own entries are read: then the fields earlier readings missed.
        let Some(seed) = seed.into_inner() else {
            return Ok(None);
        };
        while let Some(field) = self.missing.pop() {
            if !self.seen.iter().any(|k| k == field) {
                self.placeholder_for = Some(field);
                let key = de::value::BorrowedStrDeserializer::new(field);
                return seed.deserialize(key).map(Some);
            }
        }
        Ok(None)
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        if let Some(field) = self.placeholder_for.take() {
            self.state.missing_field(self.path, field);
            return seed
                .deserialize(Placeholder::new())
                .inspect_err(|_| self.state.handled.set(true));
        }
        let key = self.key.take().unwrap_or_default();
        let path = Path::Key(self.path, &key);
        self.inner.next_value_seed(Seed {
            seed,
            path: &path,
            state: self.state,
        })
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

pub(super) struct Variants<'p, A> {
    pub(super) inner: A,
    pub(super) path: &'p Path<'p>,
    pub(super) state: &'p State,
}

impl<'de, 'p, A: EnumAccess<'de>> EnumAccess<'de> for Variants<'p, A> {
    type Error = A::Error;
    type Variant = Variants<'p, A::Variant>;
    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        let (path, state) = (self.path, self.state);
        let (value, variant) = self.inner.variant_seed(seed)?;
        Ok((
            value,
            Variants {
                inner: variant,
                path,
                state,
            },
        ))
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for Variants<'_, A> {
    type Error = A::Error;
    fn unit_variant(self) -> Result<(), A::Error> {
        self.inner.unit_variant()
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.inner.newtype_variant_seed(Seed {
            seed,
            path: self.path,
            state: self.state,
        })
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        let Variants { inner, path, state } = self;
        read(
            path,
            state,
            Kind::Other,
            visitor,
            |v| inner.tuple_variant(len, v),
            |p, v| p.deserialize_tuple(len, v),
        )
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let Variants { inner, path, state } = self;
        read(
            path,
            state,
            Kind::Struct(fields),
            visitor,
            |v| inner.struct_variant(fields, v),
            |p, v| p.deserialize_struct("", fields, v),
        )
    }
}
