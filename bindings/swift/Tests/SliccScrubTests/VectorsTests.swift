// Runs vectors/vectors.json (SPEC §5) through the Swift wrapper: bytes(),
// text() where the case is text, a stream split at every point, and one
// byte at a time, comparing output and hits (in any order); and
// vectors/idle.json step by step.
//
// Untested on the machine this was written on (no Swift toolchain there);
// CI runs it in the macOS job.

import Foundation
import SliccScrub
import XCTest

private struct VectorCase {
    let name: String
    let secrets: [Secret]
    let sameLength: Bool
    let input: [UInt8]
    let text: String?
    let output: [UInt8]
    let hits: [Hit]
}

private func fromHex(_ hex: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        bytes.append(UInt8(hex[index..<next], radix: 16)!)
        index = next
    }
    return bytes
}

private func field(_ object: [String: Any], _ text: String, _ hex: String) -> [UInt8]? {
    if let value = object[text] as? String { return Array(value.utf8) }
    if let value = object[hex] as? String { return fromHex(value) }
    return nil
}

private func sorted(_ hits: [Hit]) -> [Hit] {
    hits.sorted { ($0.name, $0.form, $0.count) < ($1.name, $1.form, $1.count) }
}

/// The repository: Tests/SliccScrubTests/ -> Tests/ -> swift/ -> bindings/ -> root.
private let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

/// The cases of one of the repository's vector files.
private func loadCaseObjects(_ file: String) throws -> [[String: Any]] {
    let data = try Data(contentsOf: root.appendingPathComponent("vectors/\(file)"))
    let document = try JSONSerialization.jsonObject(with: data) as! [String: Any]
    return document["cases"] as! [[String: Any]]
}

private func secretsOf(_ item: [String: Any]) -> [Secret] {
    (item["secrets"] as! [[String: Any]]).map { secret in
        Secret(name: secret["name"] as! String,
               value: field(secret, "value", "valueHex")!,
               placeholder: field(secret, "placeholder", "placeholderHex"))
    }
}

private func sameLengthOf(_ item: [String: Any]) -> Bool {
    ((item["options"] as? [String: Any])?["sameLength"] as? Bool) ?? false
}

private func hitsOf(_ item: [String: Any]) -> [Hit] {
    sorted((item["hits"] as! [[String: Any]]).map { hit in
        Hit(name: hit["name"] as! String, form: hit["form"] as! String,
            count: (hit["count"] as! NSNumber).uint64Value)
    })
}

private func loadCases() throws -> [VectorCase] {
    try loadCaseObjects("vectors.json").map { (item: [String: Any]) -> VectorCase in
        VectorCase(
            name: item["name"] as! String,
            secrets: secretsOf(item),
            sameLength: sameLengthOf(item),
            input: field(item, "input", "inputHex")!,
            text: item["input"] as? String,
            output: field(item, "output", "outputHex")!,
            hits: hitsOf(item))
    }
}

final class VectorsTests: XCTestCase {
    func testConstants() {
        XCTAssertEqual(Constants.fragment, 16)
        XCTAssertEqual(Constants.minValue, 8)
        XCTAssertEqual(Constants.idleMilliseconds, 50)
        XCTAssertEqual(Constants.rulesVersion, 4)
        XCTAssertFalse(Constants.version.isEmpty)
    }

    func testEveryCaseEverySplitPoint() throws {
        let cases = try loadCases()
        XCTAssertGreaterThan(cases.count, 100)
        var splits = 0
        for item in cases {
            let scrubber = try Scrubber(item.secrets, sameLength: item.sameLength)

            let whole = try scrubber.bytes(item.input)
            XCTAssertEqual(whole.output, item.output, "\(item.name): bytes")
            XCTAssertEqual(sorted(whole.hits), item.hits, "\(item.name): bytes hits")

            if let text = item.text {
                let scrubbed = try scrubber.text(text)
                XCTAssertEqual(scrubbed.output, String(decoding: item.output, as: UTF8.self), "\(item.name): text")
                XCTAssertEqual(sorted(scrubbed.hits), item.hits, "\(item.name): text hits")
            }

            for split in 0...item.input.count {
                let stream = try scrubber.stream()
                var out = try stream.push(Array(item.input[0..<split]))
                out += try stream.push(Array(item.input[split...]))
                out += try stream.end()
                XCTAssertEqual(out, item.output, "\(item.name): split at \(split)")
                XCTAssertEqual(try sorted(stream.hits()), item.hits, "\(item.name): hits, split at \(split)")
                splits += 1
            }

            let stream = try scrubber.stream()
            var out: [UInt8] = []
            for byte in item.input {
                out += try stream.push([byte])
            }
            out += try stream.end()
            XCTAssertEqual(out, item.output, "\(item.name): one byte at a time")
            XCTAssertEqual(try sorted(stream.hits()), item.hits, "\(item.name): hits, one byte at a time")
        }
        print("vectors.json: \(cases.count) cases, \(splits) split points and one byte at a time")
    }

    func testErrorsNameNoValue() throws {
        let value = "correct horse battery staple"
        XCTAssertThrowsError(try Scrubber([Secret(name: "PW", value: "s3cr3t!")])) { error in
            let error = error as! ScrubError
            XCTAssertEqual(error.status, Status.valueTooShort)
            XCTAssertFalse(error.message.contains("s3cr3t!"))
        }
        XCTAssertThrowsError(try Scrubber([Secret(name: "A", value: value), Secret(name: "A", value: value + "!")])) { error in
            let error = error as! ScrubError
            XCTAssertEqual(error.status, Status.duplicateName)
            XCTAssertFalse(error.message.contains(value))
        }
        let stream = try Scrubber([Secret(name: "PW", value: value)]).stream()
        XCTAssertEqual(try stream.push(Array("pw: \(value)\n".utf8)) + (try stream.end()), Array("pw: [redacted:PW]\n".utf8))
        XCTAssertThrowsError(try stream.push([1])) { error in
            XCTAssertEqual((error as! ScrubError).status, Status.streamEnded)
        }
    }

    func testPrintingASecretShowsNoSecret() {
        let value = "correct horse battery staple"
        let secret = Secret(name: "another-secret-value", value: value, placeholder: "<the-placeholder>")
        var dumped = ""
        dump(secret, to: &dumped)
        for shown in ["\(secret)", String(describing: secret), String(reflecting: secret), "\([secret])", dumped] {
            XCTAssertFalse(shown.contains(value), shown)
            XCTAssertFalse(shown.contains("the-placeholder"), shown)
            XCTAssertFalse(shown.contains(secret.name), shown)
        }
    }

    func testIdleReleasesAPrompt() throws {
        let stream = try Scrubber([Secret(name: "PW", value: "correct horse battery staple")]).stream()
        // A prompt with no newline: its tail may start a fragment, so push
        // holds it; idle releases it.
        let shown = try stream.push(Array("Password: ".utf8)) + (try stream.idle())
        XCTAssertEqual(shown, Array("Password: ".utf8))
        XCTAssertEqual(try stream.held(), 0)
    }

    /// vectors/idle.json: each case's steps (push, idle, end) in order,
    /// each step's output, then the hits.
    func testIdleVectorsStepByStep() throws {
        let cases = try loadCaseObjects("idle.json")
        XCTAssertGreaterThan(cases.count, 10)
        for item in cases {
            let name = item["name"] as! String
            let stream = try Scrubber(secretsOf(item), sameLength: sameLengthOf(item)).stream()
            let steps = item["steps"] as! [[String: Any]]
            let outputs: [[UInt8]]
            if let hex = item["outputsHex"] as? [String] {
                outputs = hex.map { fromHex($0) }
            } else {
                outputs = (item["outputs"] as! [String]).map { Array($0.utf8) }
            }
            guard steps.count == outputs.count else {
                XCTFail("\(name): \(steps.count) steps, \(outputs.count) outputs")
                continue
            }
            for (index, step) in steps.enumerated() {
                let got: [UInt8]
                if let pushed = field(step, "push", "pushHex") {
                    got = try stream.push(pushed)
                } else if (step["idle"] as? Bool) == true {
                    got = try stream.idle()
                } else if (step["end"] as? Bool) == true {
                    got = try stream.end()
                } else {
                    XCTFail("\(name): step \(index): unknown step \(step.keys.sorted())")
                    continue
                }
                XCTAssertEqual(got, outputs[index], "\(name): step \(index)")
            }
            XCTAssertEqual(try sorted(stream.hits()), hitsOf(item), "\(name): hits")
        }
        print("idle.json: \(cases.count) cases, step by step")
    }

    func testJSONSecrets() throws {
        let scrubber = try Scrubber(json: Array(#"[{"name": "GH", "value": "ghp_abcdefgh12345678", "placeholder": "P"}]"#.utf8))
        XCTAssertEqual(try scrubber.text("t=ghp_abcdefgh12345678").output, "t=P")
    }
}
