//! Bodies that are not JSON, sent by the typed client: a multipart form (text, a list, an
//! optional field, files) and a byte stream — in-process and over a socket, the same bytes.

use pactum::{
    handler, route, upload::ByteStream, upload::FilePart, upload::Multipart, Ctx, Endpoint,
    NoParams, NoQuery, Pipeline,
};
use pactum_client::{Client, Part};
use serde::{Deserialize, Serialize};
use validator::Validate;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Validate)]
struct Album {
    #[validate(length(min = 1, max = 20))]
    title: String,
    year: u16,
    #[serde(default)]
    tags: Vec<String>,
    note: Option<String>,
    cover: FilePart,
    #[serde(default)]
    photos: Vec<FilePart>,
}

/// What the server read: every field, the files by name, size and content type.
#[derive(Debug, PartialEq, Serialize, Deserialize, Validate)]
struct Seen {
    title: String,
    year: u16,
    tags: Vec<String>,
    note: Option<String>,
    files: Vec<(Option<String>, usize, Option<String>)>,
}

fn album() -> Endpoint<NoParams, NoQuery, Multipart<Album>, Seen> {
    Endpoint::post(route::static_path("/albums"))
        .body::<Multipart<Album>>()
        .field_limit("cover", 1000)
        .response::<Seen>()
        .build()
        .unwrap()
}

fn blob() -> Endpoint<NoParams, NoQuery, ByteStream, Seen> {
    Endpoint::put(route::static_path("/blob"))
        .body::<ByteStream>()
        .response::<Seen>()
        .build()
        .unwrap()
}

fn handlers() -> Vec<pactum::handler::AnyHandler> {
    vec![
        handler(
            album(),
            |ctx: Ctx<NoParams, NoQuery, Multipart<Album>>| async move {
                let album = ctx.body.into_inner();
                let file = |f: &FilePart| {
                    (
                        f.filename().map(str::to_owned),
                        f.len(),
                        f.content_type().map(str::to_owned),
                    )
                };
                let mut files = vec![file(&album.cover)];
                files.extend(album.photos.iter().map(file));
                Ok(Seen {
                    title: album.title,
                    year: album.year,
                    tags: album.tags,
                    note: album.note,
                    files,
                })
            },
        )
        .into(),
        handler(
            blob(),
            |ctx: Ctx<NoParams, NoQuery, ByteStream>| async move {
                let content_type = ctx.headers.get("content-type").cloned();
                let bytes = ctx.body.collect_bytes().await?;
                Ok(Seen {
                    title: String::from_utf8_lossy(&bytes).into_owned(),
                    year: 0,
                    tags: Vec::new(),
                    note: content_type.map(|v| v.to_str().unwrap_or_default().to_owned()),
                    files: Vec::new(),
                })
            },
        )
        .into(),
    ]
}

async fn every_upload(client: &Client) {
    let form = Album {
        title: "Summer".into(),
        year: 2026,
        tags: vec!["sea".into(), "sun \"hot\"".into()],
        note: None,
        cover: FilePart::new(vec![1u8; 1000])
            .with_filename("cover.png")
            .with_content_type("image/png"),
        photos: vec![
            FilePart::new("a"),
            FilePart::new("bb").with_filename("b.jpg"),
        ],
    };
    let seen = client
        .call(&album())
        .body(Multipart(form.clone()))
        .send()
        .await
        .unwrap();
    let octet = Some("application/octet-stream".to_owned());
    assert_eq!(
        seen,
        Seen {
            title: "Summer".into(),
            year: 2026,
            tags: vec!["sea".into(), "sun \"hot\"".into()],
            note: None,
            files: vec![
                (Some("cover.png".into()), 1000, Some("image/png".into())),
                (None, 1, octet.clone()),
                (Some("b.jpg".into()), 2, octet),
            ],
        }
    );

    // Checked before sending, as a JSON body is.
    let mut bad = form.clone();
    bad.title = String::new();
    let error = client
        .call(&album())
        .body(Multipart(bad))
        .send()
        .await
        .unwrap_err();
    assert_eq!(error.validation_part(), Some(Part::Body), "{error:?}");
    // The server's own limit on the cover: 413 naming it.
    let mut big = form;
    big.cover = FilePart::new(vec![0u8; 1001]);
    let error = client
        .call(&album())
        .body(Multipart(big))
        .send()
        .await
        .unwrap_err();
    assert_eq!(error.status().map(|s| s.as_u16()), Some(413), "{error:?}");
    assert_eq!(
        error.error_body().unwrap().details[0].path,
        vec!["cover".into()]
    );

    let seen = client
        .call(&blob())
        .body(ByteStream::from("raw bytes"))
        .send()
        .await
        .unwrap();
    assert_eq!(seen.title, "raw bytes");
    assert_eq!(seen.note.as_deref(), Some("application/octet-stream"));
    // A stream not made from bytes cannot be sent: nothing goes out.
    let error = client
        .call(&blob())
        .body(ByteStream::new(pactum::pipeline::Body::from("x")))
        .send()
        .await
        .unwrap_err();
    assert!(error.is_builder(), "{error:?}");
}

#[tokio::test]
async fn in_process() {
    every_upload(&Client::in_process(Pipeline::new(handlers()).unwrap())).await;
}

#[tokio::test]
async fn over_http() {
    let server = pactum::serve(handlers(), pactum_test_kit::options())
        .await
        .unwrap();
    let client = Client::new(format!("http://{}", server.local_addr()).as_str()).unwrap();
    every_upload(&client).await;
}
