//! `forward_deserializer!`: the `Deserializer` methods of a wrapper that hands each call on
//! to the deserializer it wraps, with the visitor wrapped.

/// Writes `Deserializer` methods that each make the same call on `$inner`, the method's own
/// arguments passed on and the visitor replaced by the header's wrapped visitor, or by the
/// one a method names after `=>`:
///
/// ```text
/// forward_deserializer! { |self, visitor| self.inner => Wrap(visitor);
///     deserialize_any;
///     deserialize_i8 => Narrow(Wrap(visitor));
///     deserialize_struct(name: &'static str, fields: &'static [&'static str]);
/// }
/// ```
///
/// `self` and the visitor's name are the caller's, so the expressions can use them. Used by
/// the wrappers whose every method is such a call (`collect`'s key reader, `json_as_schema`);
/// `collect`'s `Collect` makes two calls per method (on the wrapped deserializer, then on a
/// placeholder) and writes its own.
macro_rules! forward_deserializer {
    (
        |$self:ident, $visitor:ident| $inner:expr => $default:expr;
        $($method:ident $(($($arg:ident: $ty:ty),*))? $(=> $wrapped:expr)?;)*
    ) => {$(
        fn $method<V: serde::de::Visitor<'de>>(
            $self,
            $($($arg: $ty,)*)?
            $visitor: V,
        ) -> Result<V::Value, Self::Error> {
            $inner.$method($($($arg,)*)? forward_deserializer!(@visitor [$($wrapped)?] $default))
        }
    )*};
    (@visitor [] $default:expr) => {
        $default
    };
    (@visitor [$wrapped:expr] $default:expr) => {
        $wrapped
    };
}
