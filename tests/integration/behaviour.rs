//! Every row of the guide's error table (`pactum::guide::errors`) and the conformance fixture's contract, over real sockets.
//!
//! Each case is an `async fn(&TestServer)`; `on_every_adapter!` runs them all against every
//! adapter, so both adapters run the same bodies.

use serde_json::json;

use crate::support::TestServer;

const NEW_USER: &str =
    r#"{"name":"Ada","email":"ada@example.com","age":36,"tags":["math","code"]}"#;

async fn create(app: &TestServer, body: &'static str) -> crate::support::Answer {
    app.post_json("/users", body).await
}

pub async fn health(app: &TestServer) {
    app.get("/health")
        .await
        .assert(200, json!({"status": "ok"}));
}

pub async fn create_and_get_user(app: &TestServer) {
    let created = create(app, NEW_USER).await;
    let user = json!({"id": 1, "name": "Ada", "email": "ada@example.com", "age": 36,
                      "tags": ["math", "code"], "active": true});
    created.assert(201, user.clone());
    app.get("/users/1").await.assert(200, user);
    app.get("/users/2")
        .await
        .assert(404, json!({"error": "User not found"}));
}

pub async fn duplicate_email_is_a_conflict(app: &TestServer) {
    create(app, NEW_USER).await;
    create(app, r#"{"name":"Eve","email":"ADA@example.com"}"#)
        .await
        .assert(409, json!({"error": "Email already exists"}));
}

pub async fn body_rules_are_all_reported(app: &TestServer) {
    create(
        app,
        r#"{"name":"","email":"nope","age":151,"tags":["a","b","c","d","e","f"]}"#,
    )
    .await
    .assert(
        400,
        json!({"error": "Validation failed", "details": [
            {"path": ["age"], "message": "must be between 0 and 150"},
            {"path": ["email"], "message": "must be a valid email address"},
            {"path": ["name"], "message": "length must be between 1 and 50"},
            {"path": ["tags"], "message": "length must be at most 5"},
        ]}),
    );
}

pub async fn body_shape_errors_have_paths(app: &TestServer) {
    let answer = create(
        app,
        r#"{"name":"Ada","email":"ada@example.com","age":"old"}"#,
    )
    .await;
    assert_eq!(answer.status, 400);
    let body = answer.json();
    assert_eq!(body["error"], "Validation failed");
    assert_eq!(body["details"][0]["path"], json!(["age"]));
    assert!(body["details"][0]["message"]
        .as_str()
        .unwrap()
        .contains("invalid type"));
    let missing = create(app, r#"{"email":"ada@example.com"}"#).await.json();
    assert_eq!(missing["details"][0]["message"], "missing field `name`");
}

pub async fn invalid_or_empty_json(app: &TestServer) {
    for body in ["{\"name\":", "", "[1,2", "{} {}"] {
        let answer = create(app, body).await;
        assert_eq!(answer.status, 400, "body {body:?}");
        let json = answer.json();
        assert_eq!(json["error"], "Invalid JSON", "body {body:?}");
        assert_eq!(json["details"].as_array().unwrap().len(), 1);
        assert_eq!(json["details"][0]["path"], json!([]));
    }
}

pub async fn content_type_must_be_json(app: &TestServer) {
    let plain = app
        .send(
            app.client
                .post(app.url("/users"))
                .header("content-type", "text/plain")
                .body(NEW_USER),
        )
        .await;
    plain.assert(415, json!({"error": "Unsupported media type"}));
    let missing = app
        .send(app.client.post(app.url("/users")).body(NEW_USER))
        .await;
    assert_eq!(missing.status, 415);
    let charset = app
        .send(
            app.client
                .post(app.url("/users"))
                .header("content-type", "application/json; charset=utf-8")
                .body(NEW_USER),
        )
        .await;
    assert_eq!(charset.status, 201);
    let suffix = app
        .send(
            app.client
                .post(app.url("/users"))
                .header("content-type", "application/merge-patch+json")
                .body(r#"{"name":"Bo","email":"bo@example.com"}"#),
        )
        .await;
    assert_eq!(suffix.status, 201);
}

pub async fn oversized_bodies_are_refused(app: &TestServer) {
    let big = format!(
        r#"{{"name":"{}","email":"x@example.com"}}"#,
        "x".repeat(2 * 1024 * 1024)
    );
    let answer = app
        .send(
            app.client
                .post(app.url("/users"))
                .header("content-type", "application/json")
                .body(big),
        )
        .await;
    answer.assert(413, json!({"error": "Payload too large"}));
    // A declared 50 MB body is refused before a byte of it is sent.
    let head = "POST /users HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 50000000\r\nconnection: close\r\n\r\n";
    let raw = app.raw(head.as_bytes()).await;
    assert!(raw.starts_with("HTTP/1.1 413"), "{raw}");
    assert!(raw.ends_with(r#"{"error":"Payload too large"}"#), "{raw}");
}

pub async fn chunked_body_over_the_limit(app: &TestServer) {
    let chunk = "x".repeat(64 * 1024);
    let mut request = String::from("POST /users HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n");
    for _ in 0..20 {
        request.push_str(&format!("{:x}\r\n{chunk}\r\n", chunk.len()));
    }
    request.push_str("0\r\n\r\n");
    let raw = app.raw(request.as_bytes()).await;
    assert!(
        raw.starts_with("HTTP/1.1 413"),
        "{}",
        &raw[..raw.len().min(200)]
    );
}

pub async fn list_query_paging_and_filters(app: &TestServer) {
    for (name, tags, active) in [
        ("a", r#"["x","y"]"#, true),
        ("b", r#"["x"]"#, false),
        ("c", r#"["y"]"#, true),
    ] {
        let body = format!(
            r#"{{"name":"{name}","email":"{name}@example.com","tags":{tags},"active":{active}}}"#
        );
        let answer = app
            .send(
                app.client
                    .post(app.url("/users"))
                    .header("content-type", "application/json")
                    .body(body),
            )
            .await;
        assert_eq!(answer.status, 201);
    }
    let names = |answer: &crate::support::Answer| -> Vec<String> {
        answer.json()["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let all = app.get("/users").await;
    assert_eq!(names(&all), ["a", "b", "c"]);
    assert_eq!(
        (all.json()["limit"].clone(), all.json()["total"].clone()),
        (json!(10), json!(3))
    );
    let page = app.get("/users?limit=1&offset=1").await;
    assert_eq!(
        (names(&page), page.json()["total"].clone()),
        (vec!["b".to_owned()], json!(3))
    );
    assert_eq!(names(&app.get("/users?active=true").await), ["a", "c"]);
    assert_eq!(names(&app.get("/users?tag=x&tag=y").await), ["a"]);
    assert_eq!(names(&app.get("/users?tag[]=x&tag[]=y").await), ["a"]);
    assert_eq!(names(&app.get("/users?tag=y&unknown=1").await), ["a", "c"]);
}

pub async fn query_failures(app: &TestServer) {
    let zero = app.get("/users?limit=0").await;
    zero.assert(
        400,
        json!({"error": "Validation failed", "details": [
        {"path": ["limit"], "message": "must be between 1 and 100"}]}),
    );
    let word = app.get("/users?limit=ten").await.json();
    assert_eq!(word["details"][0]["path"], json!(["limit"]));
    let flag = app.get("/users?active=maybe").await.json();
    assert_eq!(flag["details"][0]["path"], json!(["active"]));
}

pub async fn params_failures_and_decoding(app: &TestServer) {
    let answer = app.get("/users/abc").await;
    assert_eq!(answer.status, 400);
    assert_eq!(answer.json()["details"][0]["path"], json!(["id"]));
    app.get("/orgs/acme%20inc/repos/r%C3%A9po%2Fx")
        .await
        .assert(200, json!({"org": "acme inc", "repo": "répo/x"}));
    app.get("/files/a/b%20c/d.txt")
        .await
        .assert(200, json!({"path": "a/b c/d.txt"}));
    app.get("/files/")
        .await
        .assert(404, json!({"error": "Not found"}));
}

pub async fn replace_update_delete(app: &TestServer) {
    create(app, NEW_USER).await;
    create(app, r#"{"name":"Bo","email":"bo@example.com"}"#).await;
    let put = |id: u32, body: &'static str| {
        app.client
            .put(app.url(&format!("/users/{id}")))
            .header("content-type", "application/json")
            .body(body)
    };
    app.send(put(2, r#"{"name":"Bob","email":"bob@example.com"}"#)).await.assert(
        200,
        json!({"id": 2, "name": "Bob", "email": "bob@example.com", "age": null, "tags": [], "active": true}),
    );
    app.send(put(2, r#"{"name":"Bob","email":"ADA@example.com"}"#))
        .await
        .assert(409, json!({"error": "Email already exists"}));
    app.send(put(9, r#"{"name":"Bob","email":"z@example.com"}"#))
        .await
        .assert(404, json!({"error": "User not found"}));
    let patch = app
        .send(
            app.client
                .patch(app.url("/users/1"))
                .header("content-type", "application/json")
                .body(r#"{"age":37,"active":false}"#),
        )
        .await;
    assert_eq!(
        (
            patch.json()["age"].clone(),
            patch.json()["active"].clone(),
            patch.json()["name"].clone()
        ),
        (json!(37), json!(false), json!("Ada"))
    );
    let bad_patch = app
        .send(
            app.client
                .patch(app.url("/users/1"))
                .header("content-type", "application/json")
                .body(r#"{"name":""}"#),
        )
        .await;
    assert_eq!(bad_patch.json()["details"][0]["path"], json!(["name"]));
    app.send(app.client.delete(app.url("/users/1")))
        .await
        .assert(200, json!({"deleted": true, "id": 1}));
    app.send(app.client.delete(app.url("/users/1")))
        .await
        .assert(404, json!({"error": "User not found"}));
}

/// `PATCH /users/:id` is a JSON Merge Patch (RFC 7396): absent keeps a field, a value sets it,
/// `null` clears the one field that can be cleared (`age`) and is a 400 for the others.
pub async fn patch_is_a_merge_patch(app: &TestServer) {
    create(app, NEW_USER).await;
    let patch = |body: &'static str| {
        app.client
            .patch(app.url("/users/1"))
            .header("content-type", "application/json")
            .body(body)
    };
    let ada = |age: serde_json::Value, name: &str| {
        json!({"id": 1, "name": name, "email": "ada@example.com", "age": age,
               "tags": ["math", "code"], "active": true})
    };
    // Absent: the age is kept.
    app.send(patch(r#"{"name":"Ada L."}"#))
        .await
        .assert(200, ada(json!(36), "Ada L."));
    // A value: set.
    app.send(patch(r#"{"age":37}"#))
        .await
        .assert(200, ada(json!(37), "Ada L."));
    // `null`: cleared, and it stays cleared.
    app.send(patch(r#"{"age":null}"#))
        .await
        .assert(200, ada(json!(null), "Ada L."));
    app.get("/users/1")
        .await
        .assert(200, ada(json!(null), "Ada L."));
    app.send(patch("{}"))
        .await
        .assert(200, ada(json!(null), "Ada L."));
    // A value again after `null`.
    app.send(patch(r#"{"age":150}"#))
        .await
        .assert(200, ada(json!(150), "Ada L."));
    // Out of range: the rule applies to a value, with the field's path.
    app.send(patch(r#"{"age":151}"#)).await.assert(
        400,
        json!({"error": "Validation failed",
               "details": [{"path": ["age"], "message": "must be between 0 and 150"}]}),
    );
    // Fields that cannot be cleared refuse `null`, each named, and nothing changes.
    app.send(patch(r#"{"name":null,"age":null}"#)).await.assert(
        400,
        json!({"error": "Validation failed",
               "details": [{"path": ["name"], "message": "invalid type: null, expected a string"}]}),
    );
    app.send(patch(r#"{"email":null,"active":null}"#))
        .await
        .assert(
            400,
            json!({"error": "Validation failed", "details": [
                {"path": ["email"], "message": "invalid type: null, expected a string"},
                {"path": ["active"], "message": "invalid type: null, expected a boolean"},
            ]}),
        );
    app.send(patch(r#"{"tags":null}"#)).await.assert(
        400,
        json!({"error": "Validation failed",
               "details": [{"path": ["tags"], "message": "invalid type: null, expected a sequence"}]}),
    );
    app.get("/users/1")
        .await
        .assert(200, ada(json!(150), "Ada L."));
}

pub async fn auth_middleware(app: &TestServer) {
    app.get("/me")
        .await
        .assert(401, json!({"error": "Unauthorized"}));
    let basic = app
        .send(
            app.client
                .get(app.url("/me"))
                .header("authorization", "Basic YTpi"),
        )
        .await;
    basic.assert(401, json!({"error": "Unauthorized"}));
    assert_eq!(basic.header("www-authenticate"), "Bearer");
    app.send(app.client.get(app.url("/me")).bearer_auth("wrong"))
        .await
        .assert(401, json!({"error": "Invalid token"}));
    app.send(app.client.get(app.url("/me")).bearer_auth("secret-token"))
        .await
        .assert(200, json!({"user": "alice"}));
}

pub async fn auth_runs_before_the_body_is_read(app: &TestServer) {
    for body in ["not json", r#"{"text":""}"#] {
        app.send(
            app.client
                .post(app.url("/me/notes"))
                .header("content-type", "application/json")
                .body(body),
        )
        .await
        .assert(401, json!({"error": "Unauthorized"}));
    }
    app.send(
        app.client
            .post(app.url("/me/notes"))
            .header("content-type", "text/plain")
            .body("x"),
    )
    .await
    .assert(401, json!({"error": "Unauthorized"}));
    app.send(
        app.client
            .post(app.url("/me/notes"))
            .bearer_auth("secret-token")
            .header("content-type", "application/json")
            .body(r#"{"text":"hi"}"#),
    )
    .await
    .assert(201, json!({"user": "alice", "text": "hi"}));
}

pub async fn middleware_is_an_onion(app: &TestServer) {
    let answer = app.get("/trace").await;
    answer.assert(
        200,
        json!({"trace": ["outer:before", "inner:before", "handler"]}),
    );
    assert_eq!(answer.header("x-trace-after"), "inner,outer");
}

pub async fn handler_errors(app: &TestServer) {
    app.get("/errors/plain")
        .await
        .assert(500, json!({"error": "boom"}));
    for code in [400, 418, 503, 599] {
        app.get(&format!("/errors/status/{code}"))
            .await
            .assert(code, json!({"error": "custom error"}));
    }
    assert_eq!(app.get("/errors/status/200").await.status, 400);
    app.get("/errors/bad-response")
        .await
        .assert(500, json!({"error": "Response validation failed"}));
}

pub async fn panics_are_isolated(app: &TestServer) {
    for _ in 0..3 {
        app.get("/errors/panic")
            .await
            .assert(500, json!({"error": "Internal server error"}));
    }
    app.get("/health")
        .await
        .assert(200, json!({"status": "ok"}));
}

pub async fn nested_details(app: &TestServer) {
    let echo = |body: &'static str| {
        app.client
            .post(app.url("/echo"))
            .header("content-type", "application/json")
            .body(body)
    };
    app.send(echo(r#"{"items":[{"sku":"a","qty":1}],"note":"n"}"#))
        .await
        .assert(201, json!({"items": [{"sku": "a", "qty": 1}], "note": "n"}));
    app.send(echo(
        r#"{"items":[{"sku":"a","qty":1},{"sku":"","qty":100}]}"#,
    ))
    .await
    .assert(
        400,
        json!({"error": "Validation failed", "details": [
            {"path": ["items", 1, "qty"], "message": "must be between 1 and 99"},
            {"path": ["items", 1, "sku"], "message": "length must be between 1 and 20"},
        ]}),
    );
    let empty = app.send(echo(r#"{"items":[]}"#)).await.json();
    assert_eq!(
        empty["details"],
        json!([{"path": ["items"], "message": "length must be at least 1"}])
    );
    let typed = app
        .send(echo(
            r#"{"items":[{"sku":"a","qty":1},{"sku":"b","qty":-1}]}"#,
        ))
        .await
        .json();
    assert_eq!(typed["details"][0]["path"], json!(["items", 1, "qty"]));
}

pub async fn routing_statuses(app: &TestServer) {
    app.get("/nope")
        .await
        .assert(404, json!({"error": "Not found"}));
    app.get("/health/")
        .await
        .assert(404, json!({"error": "Not found"}));
    app.get("/HEALTH")
        .await
        .assert(404, json!({"error": "Not found"}));
    let wrong = app.send(app.client.delete(app.url("/users"))).await;
    wrong.assert(405, json!({"error": "Method not allowed"}));
    assert_eq!(wrong.header("allow"), "GET, HEAD, POST, OPTIONS");
    let options = app
        .send(
            app.client
                .request(reqwest::Method::OPTIONS, app.url("/users/1")),
        )
        .await;
    assert_eq!(options.status, 204);
    assert_eq!(
        options.header("allow"),
        "GET, HEAD, PUT, PATCH, DELETE, OPTIONS"
    );
    let head = app.send(app.client.head(app.url("/health"))).await;
    assert_eq!((head.status, head.text.as_str()), (200, ""));
    assert_eq!(head.header("content-length"), "15");
    assert_eq!(head.header("content-type"), "application/json");
}

pub async fn slow_requests(app: &TestServer) {
    app.get("/slow?ms=50")
        .await
        .assert(200, json!({"slept": 50}));
    assert_eq!(app.get("/slow?ms=10001").await.status, 400);
}

pub async fn keep_alive_and_pipelining(app: &TestServer) {
    let one = "GET /health HTTP/1.1\r\nhost: x\r\n\r\n";
    let last = "GET /users/7 HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n";
    let raw = app.raw(format!("{one}{one}{last}").as_bytes()).await;
    let statuses: Vec<&str> = raw
        .match_indices("HTTP/1.1 ")
        .map(|(i, _)| &raw[i + 9..i + 12])
        .collect();
    assert_eq!(statuses, ["200", "200", "404"], "{raw}");
}

on_every_adapter!(
    health,
    create_and_get_user,
    duplicate_email_is_a_conflict,
    body_rules_are_all_reported,
    body_shape_errors_have_paths,
    invalid_or_empty_json,
    content_type_must_be_json,
    oversized_bodies_are_refused,
    chunked_body_over_the_limit,
    list_query_paging_and_filters,
    query_failures,
    params_failures_and_decoding,
    replace_update_delete,
    patch_is_a_merge_patch,
    auth_middleware,
    auth_runs_before_the_body_is_read,
    middleware_is_an_onion,
    handler_errors,
    panics_are_isolated,
    nested_details,
    routing_statuses,
    slow_requests,
    keep_alive_and_pipelining,
);
