//! `slicc-scrub completions SHELL` and `slicc-scrub manpage`: generated from
//! the clap definitions, so they list what the tool takes (`run --pty`,
//! `--no-pty`, ...).

use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_slicc-scrub");

fn slicc(args: &[&str]) -> Output {
    let output = Command::new(BIN).args(args).output().unwrap();
    assert!(output.status.success(), "{args:?}: {output:?}");
    assert_eq!(output.stderr, b"", "{args:?}");
    output
}

fn text(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

#[test]
fn completions_for_bash_zsh_and_fish() {
    for (shell, marker) in [
        ("bash", "complete -F _slicc__scrub"),
        ("zsh", "#compdef slicc-scrub"),
        ("fish", "complete -c slicc-scrub"),
    ] {
        let script = text(&slicc(&["completions", shell]));
        assert!(script.contains(marker), "{shell}: no {marker:?}");
        // fish spells long options `-l NAME`.
        for word in ["run", "no-pty", "secrets", "env", "idle-ms", "manpage"] {
            assert!(script.contains(word), "{shell}: no {word:?}");
        }
    }
}

/// Bash itself, given the script, completes a subcommand's options (which
/// clap_complete's own script, for a hyphenated name, does not). Linux:
/// where CI has a known bash.
#[cfg(target_os = "linux")]
#[test]
fn bash_completes_the_options_of_run() {
    let script = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("slicc-scrub.bash");
    std::fs::write(&script, slicc(&["completions", "bash"]).stdout).unwrap();
    let complete = |words: &str| {
        let output = Command::new("bash")
            .arg("-c")
            .arg(
                r#"source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
                   _slicc__scrub slicc-scrub "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                   printf '%s\n' "${COMPREPLY[@]}""#,
            )
            .arg("bash")
            .arg(&script)
            .args(words.split(' '))
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    assert_eq!(complete("slicc-scrub run --no"), "--no-pty\n");
    assert_eq!(complete("slicc-scrub completions z"), "zsh\n");
    assert!(complete("slicc-scrub r").lines().any(|word| word == "run"));
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    let output = Command::new(BIN)
        .args(["completions", "tcsh"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(output.stdout, b"");
}

#[test]
fn the_manual_page_describes_the_options() {
    let page = text(&slicc(&["manpage"]));
    assert!(page.contains(".TH slicc-scrub 1"), "{page}");
    for word in [
        ".SH SYNOPSIS",
        ".SH OPTIONS",
        ".SH SUBCOMMANDS",
        "idle\\-ms",
        "run",
    ] {
        assert!(page.contains(word), "no {word:?} in the page");
    }
}

#[test]
fn manpage_dir_writes_a_page_per_subcommand() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("man1");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    slicc(&["manpage", "--dir", dir.to_str().unwrap()]);
    let mut pages: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    pages.sort();
    assert_eq!(
        pages,
        [
            "slicc-scrub-completions.1",
            "slicc-scrub-demo.1",
            "slicc-scrub-manpage.1",
            "slicc-scrub-run.1",
            "slicc-scrub.1",
        ]
    );
    let run = std::fs::read_to_string(dir.join("slicc-scrub-run.1")).unwrap();
    for word in ["\\-\\-pty", "\\-\\-no\\-pty", "pseudo\\-terminal"] {
        assert!(run.contains(word), "no {word:?} in slicc-scrub-run.1");
    }
}
