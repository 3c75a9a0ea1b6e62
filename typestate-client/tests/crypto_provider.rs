//! reqwest is not re-exported (built by this crate with `rustls-no-provider`, its
//! `reqwest::get` panics with no crypto provider installed); `install_crypto_provider` is what
//! a program with a `reqwest::Client` of its own calls first.
//!
//! A test binary of its own, with one test: the process starts with no provider installed.
#![cfg(feature = "rustls")]

use std::io::{Read, Write};
use std::net::TcpListener;

use pactum::{contract::Text, route, Endpoint};

/// A server on 127.0.0.1 that answers each of `count` connections with `hello`.
fn hello_server(count: usize) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(count) {
            let mut stream = stream.unwrap();
            let mut head = Vec::new();
            while !head.ends_with(b"\r\n\r\n") {
                let mut byte = [0];
                if stream.read(&mut byte).unwrap() == 0 {
                    break;
                }
                head.push(byte[0]);
            }
            stream
                .write_all(
                    b"HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 5\r\n\
                      connection: close\r\n\r\nhello",
                )
                .unwrap();
        }
    });
    format!("http://{addr}")
}

#[tokio::test]
async fn reqwest_makes_clients_once_the_provider_is_installed() {
    assert!(
        rustls::crypto::CryptoProvider::get_default().is_none(),
        "a fresh process has no provider"
    );
    // What a re-exported `reqwest::get` did: reqwest panics when it makes a client.
    assert!(
        std::panic::catch_unwind(reqwest::Client::new).is_err(),
        "reqwest makes no client without a provider"
    );

    assert!(pactum_client::install_crypto_provider(), "installed");
    assert!(
        !pactum_client::install_crypto_provider(),
        "installed once; a second call is harmless"
    );

    let base = hello_server(2);
    let answer = reqwest::get(format!("{base}/hello")).await.expect("sent");
    assert_eq!(answer.text().await.unwrap(), "hello");

    // A reqwest client of one's own, handed to the typed client.
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("reqwest makes a client");
    let client = pactum_client::Client::builder()
        .base_url(base.as_str())
        .reqwest_client(http)
        .build()
        .expect("a client");
    let hello = Endpoint::get(route!("/hello"))
        .response::<Text>()
        .build()
        .unwrap();
    let text = client.call(&hello).send().await.expect("answered");
    assert_eq!(text.as_str(), "hello");
}
