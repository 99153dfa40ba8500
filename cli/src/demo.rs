//! `slicc-scrub demo`: a built-in sample, scrubbed, so a newcomer sees what
//! the tool does without preparing secrets.

use std::io::{self, Write};

use slicc_scrub::{Options, RULES_VERSION, Secret, compile};

use crate::Failure;

/// Two secrets, found raw, as a fragment, in base64 (inside a Basic auth
/// header), as a JSON string body, URL-encoded, and as hex wrapped across
/// lines.
const SAMPLE: &str = concat!(
    "$ gh auth status\n",
    "  Token: ghp_R2D2c3p0BB8k2so4IG88chewieHanSolo\n",
    "$ curl -H 'Authorization: Basic ",
    "dXNlcjpnaHBfUjJEMmMzcDBCQjhrMnNvNElHODhjaGV3aWVIYW5Tb2xv' https://api.example\n",
    "{\"config\":{\"db_password\":\"p@ss w0rd/\\\"quoted\\\"\"}}\n",
    "redirect: https://app.example/cb?pw=p%40ss+w0rd%2F%22quoted%22\n",
    "key dump:\n6768705f52324432633370304242386b32736f3449\n",
    "4738386368657769654861",
    "6e536f6c6f\n",
    "partial paste: c3p0BB8k2so4IG88 (16 bytes of the token)\n",
);

/// Prints the secrets (by name), the sample, the sample scrubbed in one
/// piece (`bytes`) and streamed in small chunks (as the filter does), and
/// the hits.
pub fn run(same_length: bool) -> Result<i32, Failure> {
    let secrets = [
        Secret::new("GH_TOKEN", "ghp_R2D2c3p0BB8k2so4IG88chewieHanSolo")
            .with_placeholder("fnox_proxy_GH_TOKEN"),
        Secret::new("DB_PASSWORD", "p@ss w0rd/\"quoted\""),
    ];
    let options = Options::new(RULES_VERSION).same_length(same_length);
    let scrubber = compile(&secrets, &options).expect("the demo's secrets are valid");

    let whole = scrubber.bytes(SAMPLE.as_bytes());
    let mut stream = scrubber.stream();
    let mut scrubbed = Vec::new();
    for chunk in SAMPLE.as_bytes().chunks(7) {
        stream
            .push_into(chunk, &mut scrubbed)
            .expect("the stream is open");
    }
    stream.end_into(&mut scrubbed).expect("the stream is open");

    let mut text = String::new();
    text.push_str("slicc-scrub demo: two secrets, GH_TOKEN (with placeholder ");
    text.push_str("fnox_proxy_GH_TOKEN) and DB_PASSWORD.\n\n--- input ---\n");
    text.push_str(SAMPLE);
    text.push_str("\n--- scrubbed in one piece (bytes) ---\n");
    text.push_str(&String::from_utf8_lossy(&whole.output));
    text.push_str("\n--- scrubbed as a stream, in 7-byte chunks ---\n");
    text.push_str(&String::from_utf8_lossy(&scrubbed));
    text.push_str(if scrubbed == whole.output {
        "(identical to the one-piece result, as it always is)\n"
    } else {
        "(DIFFERENT from the one-piece result: this is a bug)\n"
    });
    text.push_str("\n--- hits ---\n");
    for hit in stream.hits() {
        text.push_str(&format!(
            "{:<12} {:<9} {}\n",
            hit.name,
            hit.form.as_str(),
            hit.count
        ));
    }
    text.push_str(concat!(
        "\nYour turn:\n",
        "  printenv | slicc-scrub --env GITHUB_TOKEN\n",
        "  slicc-scrub run --secrets secrets.json -- make test\n",
        "  slicc-scrub --help\n",
    ));
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(0),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(crate::CLOSED_OUTPUT),
        Err(e) => Err(Failure::io(format!("writing standard output: {e}"))),
    }
}
