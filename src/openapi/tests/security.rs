//! Security requirements declared on the contract: `components.securitySchemes`, the
//! operation's `security`, and the pipeline's 401 among its answers.

use serde_json::json;

use super::doc;
use crate::openapi::{OpenApi, OpenApiVersion};
use crate::{route, Endpoint, Security};

#[test]
fn a_contract_without_security_has_no_requirement_and_no_scheme() {
    let health = Endpoint::get(route::static_path("/health"))
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1").endpoint(&health));
    let op = &doc["paths"]["/health"]["get"];
    assert!(op.get("security").is_none());
    assert!(op["responses"].get("401").is_none());
    assert!(doc["components"].get("securitySchemes").is_none());
}

#[test]
fn bearer_and_api_key_schemes_are_listed_once_each() {
    let me = Endpoint::get(route::static_path("/me"))
        .security(Security::bearer().bearer_format("JWT"))
        .build()
        .unwrap();
    let notes = Endpoint::post(route::static_path("/notes"))
        .security(Security::bearer().bearer_format("JWT"))
        .build()
        .unwrap();
    let reports = Endpoint::get(route::static_path("/reports"))
        .security(Security::api_key_header("X-Api-Key").description("From the dashboard."))
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1")
        .endpoint(&me)
        .endpoint(&notes)
        .endpoint(&reports));
    assert_eq!(
        doc["components"]["securitySchemes"],
        json!({
            "bearer": { "type": "http", "scheme": "bearer", "bearerFormat": "JWT" },
            "x-api-key": {
                "type": "apiKey",
                "in": "header",
                "name": "x-api-key",
                "description": "From the dashboard.",
            },
        })
    );
    assert_eq!(
        doc["paths"]["/me"]["get"]["security"],
        json!([{ "bearer": [] }])
    );
    assert_eq!(
        doc["paths"]["/notes"]["post"]["security"],
        json!([{ "bearer": [] }])
    );
    assert_eq!(
        doc["paths"]["/reports"]["get"]["security"],
        json!([{ "x-api-key": [] }])
    );
}

#[test]
fn the_pipeline_401_is_an_answer_of_a_secured_operation() {
    let me = Endpoint::get(route::static_path("/me"))
        .security(Security::bearer())
        .build()
        .unwrap();
    let keyed = Endpoint::get(route::static_path("/keyed"))
        .security(Security::api_key_header("x-api-key"))
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1").endpoint(&me).endpoint(&keyed));
    let unauthorized = &doc["paths"]["/me"]["get"]["responses"]["401"];
    assert!(unauthorized["description"]
        .as_str()
        .unwrap()
        .starts_with("`Unauthorized`"));
    assert_eq!(
        unauthorized["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/ErrorBody"
    );
    assert!(unauthorized["headers"]["WWW-Authenticate"].is_object());
    // An API key has no challenge to send.
    let keyed = &doc["paths"]["/keyed"]["get"]["responses"]["401"];
    assert!(keyed.get("headers").is_none());
}

#[test]
fn alternatives_are_separate_requirements_and_names_are_kept() {
    let either = Endpoint::get(route::static_path("/either"))
        .security(Security::bearer().named("userToken"))
        .security(Security::api_key_header("x-api-key").named("serviceKey"))
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1")
        .endpoint_with(&either, |op| op.security("serviceKey").security("legacy")));
    assert_eq!(
        doc["paths"]["/either"]["get"]["security"],
        json!([{ "userToken": [] }, { "serviceKey": [] }, { "legacy": [] }])
    );
    let schemes = doc["components"]["securitySchemes"].as_object().unwrap();
    assert_eq!(
        schemes.keys().collect::<Vec<_>>(),
        ["serviceKey", "userToken"]
    );
}

#[test]
fn a_scheme_declared_by_hand_wins_over_the_contract_one() {
    let me = Endpoint::get(route::static_path("/me"))
        .security(Security::bearer())
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1")
        .security_scheme(
            "bearer",
            json!({ "type": "http", "scheme": "bearer", "description": "By hand." }),
        )
        .endpoint(&me));
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"]["description"],
        "By hand."
    );
}

#[test]
fn openapi_3_0_keeps_the_schemes() {
    let me = Endpoint::get(route::static_path("/me"))
        .security(Security::bearer())
        .build()
        .unwrap();
    let doc = doc(OpenApi::new("t", "1")
        .openapi_version(OpenApiVersion::V3_0_3)
        .endpoint(&me));
    assert_eq!(
        doc["components"]["securitySchemes"]["bearer"],
        json!({ "type": "http", "scheme": "bearer" })
    );
    assert_eq!(
        doc["paths"]["/me"]["get"]["security"],
        json!([{ "bearer": [] }])
    );
}
