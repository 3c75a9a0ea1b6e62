//! [`ChangeKind`]: the rules, and which of them break clients on which side of an exchange.

use std::fmt;

/// Which way the data of a change flows: what a client sends, or what it reads back.
///
/// A schema change is judged by the side it is on. A request schema that accepts less refuses
/// requests that were valid: breaking. A response schema that allows more gives clients
/// answers their code was not written for: breaking. The other way round is compatible.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Side {
    /// The operation itself: its path, method, security.
    Operation,
    /// What the client sends: path, query, header and cookie parameters, the body.
    Request,
    /// What the client reads: statuses, response headers, the body.
    Response,
}

/// The rule a [`Change`](super::Change) falls under. Whether it breaks clients depends on the
/// rule and, for schema rules, on the side (request or response) the schema is on: the table
/// is in the [compatibility guide](crate::guide::compatibility).
///
/// ```
/// use pactum::openapi::compat::ChangeKind;
///
/// assert_eq!(ChangeKind::OperationRemoved.to_string(), "operation-removed");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ChangeKind {
    /// An operation (method and path) is gone. Breaking.
    OperationRemoved,
    /// A new operation. Compatible.
    OperationAdded,
    /// The same path with other names for its parameters (`/users/{id}` →
    /// `/users/{user_id}`). The requests on the wire are the same, but clients generated from
    /// the document name operations and arguments by them, and stop compiling. Breaking.
    PathParameterRenamed,
    /// A new required query, header or cookie parameter. Breaking.
    RequiredParameterAdded,
    /// A new optional parameter. Compatible.
    OptionalParameterAdded,
    /// A parameter is no longer read: the server ignores it when a client still sends it.
    /// Compatible.
    ParameterRemoved,
    /// An optional parameter became required. Breaking.
    ParameterMadeRequired,
    /// A required parameter became optional. Compatible.
    ParameterMadeOptional,
    /// An operation without a body now requires one. Breaking.
    RequiredRequestBodyAdded,
    /// An operation without a body now accepts an optional one. Compatible.
    OptionalRequestBodyAdded,
    /// The operation no longer reads a body. Compatible.
    RequestBodyRemoved,
    /// An optional body became required. Breaking.
    RequestBodyMadeRequired,
    /// A required body became optional. Compatible.
    RequestBodyMadeOptional,
    /// A media type of a body is gone (`application/json`, `multipart/form-data`, …): a request
    /// sending it is refused, a client expecting it in an answer gets another. Breaking.
    MediaTypeRemoved,
    /// A new media type of a body. Compatible.
    MediaTypeAdded,
    /// A success status (`2XX`, `3XX`) is gone: clients waiting for it get another. Breaking.
    SuccessStatusRemoved,
    /// A new success status: the operation may succeed with an answer clients never saw.
    /// Breaking.
    SuccessStatusAdded,
    /// An error status (`4XX`, `5XX`, `default`) is no longer declared. Compatible.
    ErrorStatusRemoved,
    /// A new error status. Clients already have to handle errors they do not know. Compatible.
    ErrorStatusAdded,
    /// A response header is gone. Breaking.
    ResponseHeaderRemoved,
    /// A new response header. Compatible.
    ResponseHeaderAdded,
    /// A response header that was always sent became optional. Breaking.
    ResponseHeaderMadeOptional,
    /// An optional response header is now always sent. Compatible.
    ResponseHeaderMadeRequired,
    /// The operation requires credentials a client of the old document may not send (security
    /// added, or another scheme or scope). Breaking.
    SecurityAdded,
    /// Every client of the old document still gets in (security removed, or an alternative
    /// added). Compatible.
    SecurityRemoved,
    /// A security scheme both documents name is defined differently (another header, another
    /// type). Breaking.
    SecuritySchemeChanged,
    /// A required property is new in an object. In a request: breaking; in a response:
    /// compatible.
    RequiredPropertyAdded,
    /// An optional property is new in an object. Compatible on both sides.
    OptionalPropertyAdded,
    /// A property is gone. In a response: breaking. In a request: compatible (the server
    /// ignores it), unless the object refuses unknown properties.
    PropertyRemoved,
    /// An optional property became required. In a request: breaking; in a response: compatible.
    PropertyMadeRequired,
    /// A required property became optional. In a request: compatible; in a response: breaking.
    PropertyMadeOptional,
    /// The type changed and neither accepts all the values of the other (`string` →
    /// `integer`). Breaking on both sides.
    TypeChanged,
    /// The type accepts more (`integer` → `number`, a new type in a list). In a request:
    /// compatible; in a response: breaking.
    TypeWidened,
    /// The type accepts less (`number` → `integer`). In a request: breaking; in a response:
    /// compatible.
    TypeNarrowed,
    /// `null` is now allowed. In a request: compatible; in a response: breaking.
    NullAllowed,
    /// `null` is no longer allowed. In a request: breaking; in a response: compatible.
    NullRefused,
    /// An enum has a new value. In a request: compatible; in a response: breaking (a client
    /// matching every value meets one it does not know).
    EnumValueAdded,
    /// An enum value is gone. In a request: breaking; in a response: compatible.
    EnumValueRemoved,
    /// A limit is stricter (`maxLength` lowered, `minimum` raised, a `pattern`, `format`,
    /// `enum` or `uniqueItems` added, a narrower integer format). In a request: breaking; in a
    /// response: compatible.
    ConstraintTightened,
    /// A limit is looser (the reverse). In a request: compatible; in a response: breaking.
    ConstraintLoosened,
    /// A limit changed in a way that is neither (another `pattern`, `format` or `multipleOf`).
    /// Breaking on both sides.
    ConstraintChanged,
    /// An object now refuses properties it does not list (`additionalProperties: false`). In a
    /// request: breaking; in a response: compatible.
    AdditionalPropertiesRefused,
    /// An object now allows properties it does not list. In a request: compatible; in a
    /// response: breaking.
    AdditionalPropertiesAllowed,
    /// A new alternative in a `oneOf` / `anyOf`. In a request: compatible; in a response:
    /// breaking.
    VariantAdded,
    /// An alternative of a `oneOf` / `anyOf` is gone. In a request: breaking; in a response:
    /// compatible.
    VariantRemoved,
    /// The schema changed in a way this check does not compare (an `allOf` of another length,
    /// a `not`). Breaking on both sides: look at it yourself.
    SchemaChanged,
}

impl ChangeKind {
    /// The rule's name, as the report prints it: `operation-removed`, `type-narrowed`, ….
    pub fn name(self) -> &'static str {
        use ChangeKind::*;
        match self {
            OperationRemoved => "operation-removed",
            OperationAdded => "operation-added",
            PathParameterRenamed => "path-parameter-renamed",
            RequiredParameterAdded => "required-parameter-added",
            OptionalParameterAdded => "optional-parameter-added",
            ParameterRemoved => "parameter-removed",
            ParameterMadeRequired => "parameter-made-required",
            ParameterMadeOptional => "parameter-made-optional",
            RequiredRequestBodyAdded => "required-request-body-added",
            OptionalRequestBodyAdded => "optional-request-body-added",
            RequestBodyRemoved => "request-body-removed",
            RequestBodyMadeRequired => "request-body-made-required",
            RequestBodyMadeOptional => "request-body-made-optional",
            MediaTypeRemoved => "media-type-removed",
            MediaTypeAdded => "media-type-added",
            SuccessStatusRemoved => "success-status-removed",
            SuccessStatusAdded => "success-status-added",
            ErrorStatusRemoved => "error-status-removed",
            ErrorStatusAdded => "error-status-added",
            ResponseHeaderRemoved => "response-header-removed",
            ResponseHeaderAdded => "response-header-added",
            ResponseHeaderMadeOptional => "response-header-made-optional",
            ResponseHeaderMadeRequired => "response-header-made-required",
            SecurityAdded => "security-added",
            SecurityRemoved => "security-removed",
            SecuritySchemeChanged => "security-scheme-changed",
            RequiredPropertyAdded => "required-property-added",
            OptionalPropertyAdded => "optional-property-added",
            PropertyRemoved => "property-removed",
            PropertyMadeRequired => "property-made-required",
            PropertyMadeOptional => "property-made-optional",
            TypeChanged => "type-changed",
            TypeWidened => "type-widened",
            TypeNarrowed => "type-narrowed",
            NullAllowed => "null-allowed",
            NullRefused => "null-refused",
            EnumValueAdded => "enum-value-added",
            EnumValueRemoved => "enum-value-removed",
            ConstraintTightened => "constraint-tightened",
            ConstraintLoosened => "constraint-loosened",
            ConstraintChanged => "constraint-changed",
            AdditionalPropertiesRefused => "additional-properties-refused",
            AdditionalPropertiesAllowed => "additional-properties-allowed",
            VariantAdded => "variant-added",
            VariantRemoved => "variant-removed",
            SchemaChanged => "schema-changed",
        }
    }

    /// Whether the rule breaks clients on `side`: the rules table, in code.
    pub(super) fn breaks(self, side: Side) -> bool {
        use ChangeKind::*;
        match self {
            OperationRemoved
            | PathParameterRenamed
            | RequiredParameterAdded
            | ParameterMadeRequired
            | RequiredRequestBodyAdded
            | RequestBodyMadeRequired
            | MediaTypeRemoved
            | SuccessStatusRemoved
            | SuccessStatusAdded
            | ResponseHeaderRemoved
            | ResponseHeaderMadeOptional
            | SecurityAdded
            | SecuritySchemeChanged
            | TypeChanged
            | ConstraintChanged
            | SchemaChanged => true,
            OperationAdded
            | OptionalParameterAdded
            | ParameterRemoved
            | ParameterMadeOptional
            | OptionalRequestBodyAdded
            | RequestBodyRemoved
            | RequestBodyMadeOptional
            | MediaTypeAdded
            | ErrorStatusRemoved
            | ErrorStatusAdded
            | ResponseHeaderAdded
            | ResponseHeaderMadeRequired
            | SecurityRemoved
            | OptionalPropertyAdded => false,
            // The server accepts less: breaking in a request, fine in a response.
            RequiredPropertyAdded
            | PropertyMadeRequired
            | TypeNarrowed
            | NullRefused
            | EnumValueRemoved
            | ConstraintTightened
            | AdditionalPropertiesRefused
            | VariantRemoved => side == Side::Request,
            // The server may answer more: breaking in a response, fine in a request.
            PropertyRemoved
            | PropertyMadeOptional
            | TypeWidened
            | NullAllowed
            | EnumValueAdded
            | ConstraintLoosened
            | AdditionalPropertiesAllowed
            | VariantAdded => side == Side::Response,
        }
    }

    /// Why the change breaks clients, or why it does not, in a few words.
    pub(super) fn why(self, side: Side, breaking: bool) -> &'static str {
        use ChangeKind::*;
        match (self, side, breaking) {
            (OperationRemoved, ..) => "clients calling it get 404 or 405",
            (OperationAdded, ..) => "no client calls it yet",
            (PathParameterRenamed, ..) => {
                "same requests on the wire, but generated clients name it differently"
            }
            (PropertyRemoved, Side::Request, true) => {
                "the object refuses unknown properties, so clients still sending it are refused"
            }
            (PropertyRemoved, Side::Request, false) => "the server ignores it when sent",
            (SecurityAdded | SecuritySchemeChanged, ..) => {
                "clients without the new credentials are refused"
            }
            (SecurityRemoved, ..) => "every client that got in still gets in",
            (SuccessStatusRemoved, ..) => "clients waiting for this status get another",
            (SuccessStatusAdded, ..) => {
                "the operation may succeed with an answer clients never saw"
            }
            (ErrorStatusAdded | ErrorStatusRemoved, ..) => {
                "clients already handle errors they do not know"
            }
            (MediaTypeRemoved, ..) => "clients using this media type are refused or surprised",
            (_, Side::Request, true) => "requests that were valid are refused",
            (_, Side::Request, false) => "every request that was valid stays valid",
            (_, Side::Response, true) => "answers may hold what clients do not expect",
            (_, Side::Response, false) => "every answer still fits what clients expect",
            (_, Side::Operation, true) => "clients of the old document break",
            (_, Side::Operation, false) => "clients of the old document keep working",
        }
    }
}

impl fmt::Display for ChangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
