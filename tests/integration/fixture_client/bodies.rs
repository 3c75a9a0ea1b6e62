//! Rows 17, 18, 20, 21, 23 and 24: a nested body echoed, a slow answer, a signed webhook, the
//! peer's address, a text answer and a multipart upload.

use pactum::http::StatusCode;
use pactum_client::Part;

use super::{assert_answer, client};
use crate::api::*;
use crate::support::TestServer;

/// Row 17, `POST /echo`: a nested body, echoed.
async fn row_17_echo(app: &TestServer) {
    let api = client(app);
    let echo_body = Echo {
        items: vec![EchoItem {
            sku: "a".into(),
            qty: 2,
        }],
        note: Some("n".into()),
    };
    assert_eq!(
        api.call(&echo())
            .body(echo_body.clone())
            .send()
            .await
            .unwrap(),
        echo_body
    );
}

/// Row 18, `GET /slow`.
async fn row_18_slow(app: &TestServer) {
    let api = client(app);
    assert_eq!(
        api.call(&slow())
            .query(SlowQuery { ms: 20 })
            .send()
            .await
            .unwrap(),
        Slept { slept: 20 }
    );
}

/// Row 20, `POST /webhooks`: signed over the exact bytes the client sends (compact JSON);
/// unsigned, the server's 401.
async fn row_20_webhook(app: &TestServer) {
    let api = client(app);
    let event = WebhookEvent {
        event: "push".into(),
    };
    let sent = serde_json::to_vec(&event).unwrap();
    let signature = WebhookSignature {
        x_signature: sign(&sent),
    };
    assert_eq!(
        api.call(&webhook())
            .header_params(signature)
            .body(event.clone())
            .send()
            .await
            .unwrap(),
        WebhookAck {
            ok: true,
            event: "push".into(),
            bytes: sent.len(),
        }
    );
    // Signed wrong (a signature of other bytes): the server's 401.
    let wrong = WebhookSignature {
        x_signature: sign(b"other bytes"),
    };
    let refused = api
        .call(&webhook())
        .header_params(wrong)
        .body(event.clone())
        .send()
        .await
        .unwrap_err();
    assert_answer(&refused, 401, "Invalid signature");
    // Not the length the contract declares: refused by the client before sending.
    let short = WebhookSignature {
        x_signature: "sha256=00".into(),
    };
    let unsent = api
        .call(&webhook())
        .header_params(short)
        .body(event)
        .send()
        .await
        .unwrap_err();
    assert_eq!(unsent.validation_part(), Some(Part::HeaderParams));
}

/// Row 21, `GET /whoami`: the client's address, as the server saw it.
async fn row_21_whoami(app: &TestServer) {
    let api = client(app);
    assert_eq!(
        api.call(&whoami()).send().await.unwrap(),
        WhoAmI {
            ip: "127.0.0.1".into()
        }
    );
}

/// Row 23, `GET /hello.txt`: a `Text` answer decoded to its string; a bad name is the JSON 400,
/// checked by the client before sending and by the server when sent anyway.
async fn row_23_hello_txt(app: &TestServer) {
    let api = client(app);
    let text = api.call(&hello_txt()).send().await.unwrap();
    assert_eq!(text.into_string(), "hello world");
    let ada = HelloQuery {
        name: Some("Ada".into()),
    };
    let answer = api.call(&hello_txt()).query(ada).send_full().await.unwrap();
    assert_eq!(
        answer.headers()["content-type"],
        "text/plain; charset=utf-8"
    );
    assert_eq!(answer.value().as_str(), "hello Ada");
    let empty = HelloQuery {
        name: Some(String::new()),
    };
    let refused = api
        .call(&hello_txt())
        .query(empty)
        .send()
        .await
        .unwrap_err();
    assert_eq!(refused.validation_part(), Some(Part::Query), "{refused:?}");
    let raw = app.get("/hello.txt?name=").await;
    assert_eq!(raw.status, 400);
    assert_eq!(raw.headers["content-type"], "application/json");
}

/// Row 24, `POST /uploads`: the typed client sends the form, file and all, as
/// `multipart/form-data`; the server's answer carries the file's digest. A title that breaks
/// its rules is refused before sending; a file over its limit is the server's 413.
async fn row_24_upload(app: &TestServer) {
    use pactum::{upload::FilePart, upload::Multipart};
    let api = client(app);
    let bytes: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
    let form = |title: &str, bytes: Vec<u8>| {
        Multipart(Upload {
            title: title.to_owned(),
            file: FilePart::new(bytes)
                .with_filename("notes \"v2\".bin")
                .with_content_type("application/x-notes"),
        })
    };
    let uploaded = api
        .call(&upload())
        .body(form("Notes", bytes.clone()))
        .send()
        .await
        .unwrap();
    assert_eq!(
        uploaded,
        Uploaded {
            title: "Notes".into(),
            // The quote travels percent-encoded, as browsers send it.
            filename: "notes %22v2%22.bin".into(),
            size: bytes.len(),
            sha256: sha256_hex(&bytes),
        }
    );
    let exact = vec![7u8; MAX_UPLOAD];
    let uploaded = api
        .call(&upload())
        .body(form("Exact", exact.clone()))
        .send()
        .await
        .unwrap();
    assert_eq!(uploaded.size, MAX_UPLOAD);
    let refused = api
        .call(&upload())
        .body(form("", bytes))
        .send()
        .await
        .unwrap_err();
    assert_eq!(refused.validation_part(), Some(Part::Body), "{refused:?}");
    let too_large = api
        .call(&upload())
        .body(form("Big", vec![0; MAX_UPLOAD + 1]))
        .send()
        .await
        .unwrap_err();
    assert_answer(&too_large, 413, "Payload too large");
}

/// Row 26, `GET /session`: the cookie params given to the call, sent in `Cookie`; a value
/// that breaks the contract's rules refused before sending.
async fn row_26_session(app: &TestServer) {
    let api = client(app);
    let cookies = SessionCookies {
        session: "abcdefgh".into(),
        theme: Some(Theme::Dark),
    };
    assert_eq!(
        api.call(&session())
            .cookie_params(cookies)
            .send()
            .await
            .unwrap(),
        SessionView {
            session: "abcdefgh".into(),
            theme: Theme::Dark,
        }
    );
    // A `Cookie` set by hand is kept beside them.
    let light = SessionCookies {
        session: "abcdefgh12".into(),
        theme: None,
    };
    let answer = api
        .call(&session())
        .header("cookie", "lang=en")
        .cookie_params(light)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.theme, Theme::Light);
    let short = SessionCookies {
        session: "abc".into(),
        theme: None,
    };
    let unsent = api
        .call(&session())
        .cookie_params(short)
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        unsent.validation_part(),
        Some(Part::CookieParams),
        "{unsent:?}"
    );
}

/// Row 28, `POST /tickets`: the answer's declared headers handed back typed, with the body;
/// the declared 429's too.
async fn row_28_ticket(app: &TestServer) {
    let api = client(app);
    let created = api
        .call(&create_ticket())
        .body(NewTicket {
            subject: "printer".into(),
        })
        .send()
        .await
        .unwrap();
    assert_eq!(
        created.body,
        Ticket {
            id: 1,
            subject: "printer".into()
        }
    );
    assert_eq!(
        created.headers,
        TicketCreated {
            location: "/tickets/1".into(),
            x_total_count: 1,
        }
    );
    // The declared 429, its `Retry-After` handed back typed.
    let refused = api
        .call(&create_ticket())
        .body(NewTicket {
            subject: "flood".into(),
        })
        .send()
        .await
        .unwrap_err();
    assert_eq!(refused.status(), Some(StatusCode::TOO_MANY_REQUESTS));
    let declared = refused.declared().expect("the declared 429");
    assert_eq!(declared.body.code, "flood");
    assert_eq!(declared.headers, RetryAfter { retry_after: 30 });
    assert_eq!(
        refused.error_body().map(|body| body.error.as_str()),
        Some("Too many tickets")
    );
}

on_the_fixture!(
    row_17_echo,
    row_18_slow,
    row_20_webhook,
    row_21_whoami,
    row_23_hello_txt,
    row_24_upload,
    row_26_session,
    row_28_ticket,
);
