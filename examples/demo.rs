//! Scrubs a built-in sample twice, in one piece with `bytes` and as a stream
//! in small chunks, and prints both results and the hits.

use slicc_scrub::{Options, RULES_VERSION, Secret, compile};

const SAMPLE: &str = concat!(
    "$ gh auth status\n",
    "  Token: ghp_R2D2c3p0BB8k2so4IG88chewieHanSolo\n",
    "$ curl -H 'Authorization: Basic ",
    "dXNlcjpnaHBfUjJEMmMzcDBCQjhrMnNvNElHODhjaGV3aWVIYW5Tb2xv' https://api.example\n",
    "{\"config\":{\"db_password\":\"p@ss w0rd/\\\"quoted\\\"\"}}\n",
    "redirect: https://app.example/cb?pw=p%40ss+w0rd%2F%22quoted%22\n",
    "key dump:\n6768705f52324432633370304242386b32736f3449\r\n",
    "4738386368657769654861",
    "6e536f6c6f\r\n",
    "partial paste: c3p0BB8k2so4IG88 (16 bytes of the token)\n",
);

fn main() {
    let secrets = [
        Secret::new("GH_TOKEN", "ghp_R2D2c3p0BB8k2so4IG88chewieHanSolo")
            .with_placeholder("fnox_proxy_GH_TOKEN"),
        Secret::new("DB_PASSWORD", "p@ss w0rd/\"quoted\""),
    ];
    let scrubber = compile(&secrets, &Options::new(RULES_VERSION)).expect("valid secrets");

    println!("--- input ---\n{SAMPLE}");
    let once = scrubber.text(SAMPLE);
    println!("--- bytes() ---\n{}", once.text);

    let mut stream = scrubber.stream();
    let mut streamed = Vec::new();
    for chunk in SAMPLE.as_bytes().chunks(7) {
        streamed.extend(stream.push(chunk).expect("stream is open"));
    }
    streamed.extend(stream.end().expect("stream is open"));
    println!(
        "--- stream, 7-byte chunks ---\n{}",
        String::from_utf8_lossy(&streamed)
    );
    println!(
        "stream output identical to bytes(): {}",
        streamed == once.text.as_bytes()
    );

    println!("--- hits ---");
    for hit in &once.hits {
        println!("{:<12} {:<9} {}", hit.name, hit.form.as_str(), hit.count);
    }
}
