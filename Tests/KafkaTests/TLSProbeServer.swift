import Foundation

/// `openssl s_server` on a free loopback port, with a throwaway self-signed certificate, that
/// records what a client sends it: with `-msg` it prints every TLS message (the first bytes of
/// each record in hex) and, once a handshake completes, the decrypted bytes the client sent.
///
/// It is not Kafka: a client's requests are never answered.
final class TLSProbeServer {
    /// The certificate (PEM), for the client's `ssl.ca.location`; valid for `IP:127.0.0.1`.
    let certificatePath: String
    /// The port it listens on, on 127.0.0.1.
    private(set) var port = 0

    private let directory: URL
    private let outputPath: String
    private let process = Process()
    /// Held open: s_server ends when its standard input does.
    private let input = Pipe()

    /// Generates the certificate and starts the server.
    ///
    /// - Throws: ``TestFailure`` when s_server does not report its port within `deadline`, or
    ///   what starting `openssl` throws.
    init(deadline: Duration = .seconds(30)) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-probe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        certificatePath = directory.appendingPathComponent("certificate.pem").path
        let keyPath = directory.appendingPathComponent("key.pem").path
        outputPath = directory.appendingPathComponent("s_server.log").path

        let request = Process()
        request.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        request.arguments = [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", keyPath, "-out", certificatePath, "-days", "1", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1",
        ]
        request.standardOutput = FileHandle.nullDevice
        request.standardError = FileHandle.nullDevice
        try request.run()
        request.waitUntilExit()
        guard request.terminationStatus == 0 else {
            throw TestFailure("openssl req failed with status \(request.terminationStatus)")
        }

        guard FileManager.default.createFile(atPath: outputPath, contents: nil) else {
            throw TestFailure("cannot create \(outputPath)")
        }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Port 0: the kernel picks a free port, and s_server prints it ("ACCEPT 127.0.0.1:PORT").
        process.arguments = [
            "openssl", "s_server", "-accept", "127.0.0.1:0", "-cert", certificatePath, "-key", keyPath, "-msg",
        ]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        port = try await waitFor("s_server's ACCEPT line", within: deadline) { text in
            text.split(separator: "\n").lazy.compactMap { line -> Int? in
                guard line.hasPrefix("ACCEPT 127.0.0.1:") else { return nil }
                return Int(line.dropFirst("ACCEPT 127.0.0.1:".count))
            }.first
        }
    }

    deinit {
        stop()
    }

    /// What s_server printed so far (decrypted client bytes decoded leniently).
    var output: String {
        let data = FileManager.default.contents(atPath: outputPath) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// The hex dump of the first bytes s_server received from a client (its first `<<<` message),
    /// for example `16 03 01 00 f4` for a TLS handshake record.
    var firstClientBytes: String? {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("<<< ") }), start + 1 < lines.count else {
            return nil
        }
        return lines[start + 1].trimmingCharacters(in: .whitespaces)
    }

    /// Waits until `extract` finds its answer in the output, checking every 50 ms.
    ///
    /// - Throws: ``TestFailure`` with `what` and the output so far, if not within `deadline`.
    func waitFor<T>(_ what: String, within deadline: Duration = .seconds(30), _ extract: (String) -> T?) async throws
        -> T
    {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        while true {
            let text = output
            if let value = extract(text) { return value }
            guard clock.now < end, process.isRunning else {
                throw TestFailure("\(what): not seen within \(deadline); s_server printed:\n\(text)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Stops the server and removes its files.
    func stop() {
        if process.isRunning {
            // SIGKILL, not `terminate()`'s SIGTERM: the child inherits the test runner thread's
            // blocked signal mask, so a SIGTERM would stay pending forever (seen here).
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
