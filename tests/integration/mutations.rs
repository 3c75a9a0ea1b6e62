//! Malformed HTTP/1.1 requests, made deterministically from a seed by mutating a handful of
//! valid requests to the conformance API: bad framing (`Content-Length`, chunked encoding,
//! both), bad bytes (flipped, inserted, deleted, truncated), bad heads (request line, method,
//! version, header names and values, too many or too big headers), bad targets (percent-
//! encoding, invalid UTF-8, dot segments, deep brackets, huge numbers) and bad bodies (not
//! JSON, invalid UTF-8, deep nesting, huge numbers and strings, wrong types, bad escapes).
//!
//! No route that answers 5xx on purpose (`/errors/*`) or sleeps (`/slow`) is a seed.

/// splitmix64: small, seeded, the same on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

/// A request, before it is written out.
#[derive(Clone)]
struct Request {
    method: Vec<u8>,
    target: Vec<u8>,
    version: Vec<u8>,
    headers: Vec<(Vec<u8>, Vec<u8>)>,
    body: Vec<u8>,
}

impl Request {
    fn new(method: &str, target: &str, body: Option<&str>) -> Self {
        let mut headers = vec![(b"host".to_vec(), b"127.0.0.1".to_vec())];
        if body.is_some() {
            headers.push((b"content-type".to_vec(), b"application/json".to_vec()));
        }
        if target.starts_with("/me") {
            headers.push((b"authorization".to_vec(), b"Bearer secret-token".to_vec()));
        }
        Self {
            method: method.into(),
            target: target.into(),
            version: b"HTTP/1.1".to_vec(),
            headers,
            body: body.unwrap_or("").into(),
        }
    }

    /// The request with a `content-length` of its body (when it has one, or `length`).
    fn write(&self, length: Option<&[u8]>) -> Vec<u8> {
        let mut out = self.head();
        match length {
            Some(length) => header(&mut out, b"content-length", length),
            None if !self.body.is_empty() => header(
                &mut out,
                b"content-length",
                self.body.len().to_string().as_bytes(),
            ),
            None => {}
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(&self.body);
        out
    }

    /// Request line and headers, without the blank line.
    fn head(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(256 + self.body.len());
        for (i, part) in [&self.method, &self.target, &self.version]
            .iter()
            .enumerate()
        {
            if i > 0 {
                out.push(b' ');
            }
            out.extend_from_slice(part);
        }
        out.extend_from_slice(b"\r\n");
        for (name, value) in &self.headers {
            header(&mut out, name, value);
        }
        out
    }
}

fn header(out: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    out.extend_from_slice(name);
    out.extend_from_slice(b": ");
    out.extend_from_slice(value);
    out.extend_from_slice(b"\r\n");
}

/// The valid requests every case starts from.
fn seeds() -> Vec<Request> {
    vec![
        Request::new("GET", "/health", None),
        Request::new("GET", "/users?limit=5&offset=0&tag=a&active=true", None),
        Request::new(
            "POST",
            "/users",
            Some(r#"{"name":"Ada","email":"ada@example.com","age":36,"tags":["x","y"]}"#),
        ),
        Request::new(
            "PUT",
            "/users/1",
            Some(r#"{"name":"Bob","email":"bob@example.com","active":false}"#),
        ),
        Request::new("PATCH", "/users/2", Some(r#"{"name":"Cy","age":7}"#)),
        Request::new("DELETE", "/users/999", None),
        Request::new(
            "POST",
            "/echo",
            Some(r#"{"items":[{"sku":"a","qty":2},{"sku":"b","qty":99}],"note":"hi"}"#),
        ),
        Request::new("GET", "/orgs/acme/repos/widgets", None),
        Request::new("GET", "/files/docs/a/b.txt", None),
        Request::new("GET", "/me", None),
        Request::new("POST", "/me/notes", Some(r#"{"text":"note"}"#)),
    ]
}

/// One malformed request: its bytes, whether the connection can carry on after its answer
/// (its framing is intact: the server will not wait for bytes that never come), and what
/// was done to it.
pub struct Case {
    pub bytes: Vec<u8>,
    pub keeps_framing: bool,
    pub kind: &'static str,
}

/// The `index`th case of `seed`: the same bytes on every run.
pub fn case(seed: u64, index: u64) -> Case {
    let mut rng = Rng::new(seed ^ index.wrapping_mul(0xA24B_AED4_963E_E407));
    let mut seeds = seeds();
    let request = seeds.swap_remove(rng.below(seeds.len()));
    // Framing kept: mostly body, target and head mutations; framing broken: a fresh
    // connection, closed for writing after the request.
    if rng.below(100) < 60 {
        kept(&mut rng, request)
    } else {
        broken(&mut rng, request)
    }
}

fn kept(rng: &mut Rng, mut request: Request) -> Case {
    let kind = rng.pick(&[
        "body", "body", "body", "target", "target", "query", "method", "header", "version",
    ]);
    match kind {
        "body" => request.body = bad_body(rng, &request.body),
        "target" => bad_target(rng, &mut request),
        "query" => bad_query(rng, &mut request),
        "method" => {
            let methods: &[&[u8]] = &[
                b"FOO",
                b"get",
                b"GETT",
                b"G@T",
                b"OPTIONS",
                b"TRACE",
                b"DELETE",
                b"POST",
                b"PUT",
                b"CONNECT",
                b"PRI",
                b"\xc3\xa9",
            ];
            request.method = rng.pick(methods).to_vec();
        }
        "header" => bad_header(rng, &mut request),
        _ => {
            let versions: &[&[u8]] = &[
                b"HTTP/1.0",
                b"HTTP/1.2",
                b"HTTP/2.0",
                b"http/1.1",
                b"HTTP/1.1 ",
                b"HTTP/11",
                b"HTTP/",
                b"",
            ];
            request.version = rng.pick(versions).to_vec();
        }
    }
    Case {
        bytes: request.write(None),
        keeps_framing: true,
        kind,
    }
}

fn bad_body(rng: &mut Rng, body: &[u8]) -> Vec<u8> {
    let depth = rng.pick(&[200, 10_000, 100_000]);
    let digits = "9".repeat(rng.pick(&[30, 400, 10_000]));
    let field = |value: &str| format!(r#"{{"name":"Ada","email":"a@b.co","age":{value}}}"#);
    match rng.below(16) {
        0 => {
            let len = rng.below(64) + 1;
            rng.bytes(len)
        }
        1 => body[..rng.below(body.len().max(1))].to_vec(),
        2 => "[".repeat(depth).into_bytes(),
        3 => r#"{"a":"#.repeat(depth).into_bytes(),
        4 => field(&digits).into_bytes(),
        5 => field(&format!("1e{digits}")).into_bytes(),
        6 => field(rng.pick(&["-1", "-0", "1.5", "70000", "NaN", "Infinity", "0x10", "1e2"]))
            .into_bytes(),
        7 => rng
            .pick(&[
                "null",
                "[]",
                "\"x\"",
                "true",
                "0",
                r#"{"name":{}}"#,
                "{}",
                "",
            ])
            .as_bytes()
            .to_vec(),
        8 => {
            let bad: &[&[u8]] = &[
                br#"{"name":"\uD800","email":"a@b.co"}"#,
                br#"{"name":"\x","email":"a@b.co"}"#,
                b"{\"name\":\"a\x00b\",\"email\":\"a@b.co\"}",
                b"{\"name\":\"\xc0\xaf\",\"email\":\"a@b.co\"}",
                b"{\"name\":\"\xff\xfe\",\"email\":\"a@b.co\"}",
                b"\xef\xbb\xbf{\"name\":\"a\",\"email\":\"a@b.co\"}",
                b"{\"name\":\"a\",\"email\":\"a@b.co\"} trailing",
                br#"{"name":"a","name":"b","email":"a@b.co"}"#,
                b"{\"name\":\"a\nb\",\"email\":\"a@b.co\"}",
            ];
            rng.pick(bad).to_vec()
        }
        9 => {
            // Just over the 1 MiB limit (413), or just under it (a name too long: 400).
            let len = rng.pick(&[1024 * 1024 + 1, 900 * 1024]);
            format!(r#"{{"name":"{}","email":"a@b.co"}}"#, "a".repeat(len)).into_bytes()
        }
        10 => {
            let items = "{\"sku\":\"a\",\"qty\":1},".repeat(rng.below(5000) + 1);
            format!(r#"{{"items":[{}{{}}]}}"#, items).into_bytes()
        }
        11 => r#"{"items":[{"sku":"","qty":0},{"qty":"x"},7,null]}"#.into(),
        12 => r#"{"tags":["a","b","c","d","e","f",1,null,{}],"name":"a","email":"x"}"#.into(),
        _ => {
            let mut body = body.to_vec();
            for _ in 0..rng.below(4) + 1 {
                if !body.is_empty() {
                    let at = rng.below(body.len());
                    body[at] = rng.next() as u8;
                }
            }
            body
        }
    }
}

/// Bytes a target may hold without breaking the request line (no space, CR or LF).
fn target_bytes(rng: &mut Rng) -> Vec<u8> {
    let pieces: &[&[u8]] = &[
        b"%",
        b"%G1",
        b"%zz",
        b"%FF",
        b"%C3%28",
        b"%00",
        b"%2F",
        b"%2e%2e",
        b"..",
        b"//",
        b"/.",
        b"\x80",
        b"\xff",
        b"\x7f",
        b"\xc3\xa9",
        b"%E2%82",
        b"#frag",
        b"\\",
        b"%u0041",
        b"\"<>",
    ];
    match rng.below(pieces.len() + 1) {
        i if i < pieces.len() => pieces[i].to_vec(),
        _ => vec![b'a'; rng.pick(&[4096, 20_000])],
    }
}

fn bad_target(rng: &mut Rng, request: &mut Request) {
    let path_end = request
        .target
        .iter()
        .position(|&b| b == b'?')
        .unwrap_or(request.target.len());
    let at = rng.below(path_end) + 1;
    let insert = match rng.below(4) {
        0 => b"/99999999999999999999999".to_vec(),
        1 => b"/-1".to_vec(),
        _ => target_bytes(rng),
    };
    let at = at.min(request.target.len());
    request.target.splice(at..at, insert);
}

fn bad_query(rng: &mut Rng, request: &mut Request) {
    let deep = format!("a{}=1", "[b]".repeat(rng.pick(&[10, 1000])));
    let queries: Vec<Vec<u8>> = vec![
        b"limit=%".to_vec(),
        b"limit=99999999999999999999".to_vec(),
        b"limit=1&limit=2".to_vec(),
        b"tag[=x".to_vec(),
        b"tag[99999999]=x".to_vec(),
        b"tag[4294967295]=x&tag[0]=y".to_vec(),
        deep.into_bytes(),
        b"%FF=%FE".to_vec(),
        b"=&&&=&".to_vec(),
        b"active=maybe&offset=-1".to_vec(),
        b"limit=0".to_vec(),
        b"tag%5B%5D=x&tag=y".to_vec(),
        target_bytes(rng),
    ];
    let query = queries[rng.below(queries.len())].clone();
    let separator: &[u8] = if request.target.contains(&b'?') {
        b"&"
    } else {
        b"?"
    };
    request.target.extend_from_slice(separator);
    request.target.extend_from_slice(&query);
}

fn bad_header(rng: &mut Rng, request: &mut Request) {
    let content_types: &[&[u8]] = &[
        b"application/json; charset=utf-16",
        b"application/jsonx",
        b"",
        b"\xff/\xfe",
        b"application/problem+json",
    ];
    let added: Vec<(Vec<u8>, Vec<u8>)> = match rng.below(12) {
        0 => (0..rng.pick(&[100, 101, 150]))
            .map(|i| (format!("x-h{i}").into_bytes(), b"v".to_vec()))
            .collect(),
        1 => vec![(b"x-big".to_vec(), vec![b'a'; rng.pick(&[60_000, 70_000])])],
        2 => vec![(b"x y".to_vec(), b"z".to_vec())],
        3 => vec![(b"x".to_vec(), b"a\x01b".to_vec())],
        4 => vec![(b"x".to_vec(), b"a\r\n b".to_vec())],
        5 => vec![(Vec::new(), b"empty name".to_vec())],
        6 => vec![(b"host".to_vec(), b"second.example".to_vec())],
        7 => vec![(b"content-type".to_vec(), b"text/plain".to_vec())],
        8 => {
            request.headers.retain(|(n, _)| n != b"content-type");
            vec![(b"content-type".to_vec(), rng.pick(content_types).to_vec())]
        }
        9 => vec![(b"x\x80".to_vec(), b"v".to_vec())],
        10 => vec![(b"expect".to_vec(), b"200-ok".to_vec())],
        _ => vec![(b"authorization".to_vec(), b"Bearer \xff\xfe".to_vec())],
    };
    request.headers.extend(added);
}

fn broken(rng: &mut Rng, request: Request) -> Case {
    let body_len = request.body.len();
    let (bytes, kind) = match rng.below(9) {
        0 => {
            let more = (body_len + rng.below(100) + 1).to_string();
            (request.write(Some(more.as_bytes())), "length-over")
        }
        1 => {
            let less = body_len
                .saturating_sub(rng.below(body_len.max(1)) + 1)
                .to_string();
            (request.write(Some(less.as_bytes())), "length-under")
        }
        2 => {
            let values: &[&[u8]] = &[
                b"-1",
                b"+5",
                b"0x10",
                b"1,2",
                b"99999999999999999999999",
                b"",
                b" 5 ",
                b"5 5",
                b"\xff",
            ];
            (request.write(Some(rng.pick(values))), "length-invalid")
        }
        3 | 4 => (chunked(rng, &request), "chunked"),
        5 => {
            let mut bytes = request.write(None);
            for _ in 0..rng.below(4) + 1 {
                let at = rng.below(bytes.len());
                bytes[at] = rng.next() as u8;
            }
            (bytes, "flip")
        }
        6 => {
            let mut bytes = request.write(None);
            let at = rng.below(bytes.len());
            let junk: &[&[u8]] = &[b"\r", b"\n", b"\r\n", b" ", b"\0", b"\r\n\r\n", b":", b"\t"];
            bytes.splice(at..at, rng.pick(junk).iter().copied());
            (bytes, "insert")
        }
        7 => {
            let mut bytes = request.write(None);
            let at = rng.below(bytes.len());
            let end = (at + rng.below(8) + 1).min(bytes.len());
            bytes.drain(at..end);
            (bytes, "delete")
        }
        _ => {
            let bytes = request.write(None);
            let cut = rng.below(bytes.len());
            (bytes[..cut].to_vec(), "truncate")
        }
    };
    Case {
        bytes,
        keeps_framing: false,
        kind,
    }
}

/// The body in chunked encoding, mutated.
fn chunked(rng: &mut Rng, request: &Request) -> Vec<u8> {
    let mut out = request.head();
    let te: &[&[u8]] = &[
        b"chunked",
        b"chunked",
        b"chunked, gzip",
        b"gzip, chunked",
        b"identity",
        b"xchunked",
        b"Chunked",
    ];
    header(&mut out, b"transfer-encoding", rng.pick(te));
    if rng.below(3) == 0 {
        header(&mut out, b"content-length", b"3");
    }
    out.extend_from_slice(b"\r\n");
    let body = &request.body;
    let size = format!("{:x}", body.len());
    let chunk: Vec<u8> = match rng.below(8) {
        0 => [b"zz\r\n".as_slice(), body, b"\r\n0\r\n\r\n"].concat(),
        1 => [size.as_bytes(), b"\r\n", body, b"\r\n"].concat(), // no last chunk
        2 => [b"ffffffffffffffffff\r\n".as_slice(), body].concat(),
        3 => [
            size.as_bytes(),
            b";ext=\"\x01\"\r\n",
            body,
            b"\r\n0\r\n\r\n",
        ]
        .concat(),
        4 => [size.as_bytes(), b"\r\n", body, b"0\r\n\r\n"].concat(), // CRLF missing
        5 => [
            size.as_bytes(),
            b"\r\n",
            body,
            b"\r\n0\r\nx-trailer\r\n\r\n",
        ]
        .concat(),
        6 => [b"1\r\n\xff\r\n0\r\n\r\n".as_slice()].concat(),
        _ => [size.as_bytes(), b"\r\n", body, b"\r\n0\r\n\r\n"].concat(), // valid
    };
    out.extend_from_slice(&chunk);
    out
}
