import Foundation
import SwitchboardTesting

#if canImport(Glibc)
    import Glibc
#endif

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
    private let server: ChildProcess
    /// The write end of s_server's standard input, held open: s_server ends when its input does.
    private let input: Int32
    private var stopped = false

    /// Generates the certificate and starts the server.
    ///
    /// - Throws: ``TestFailure`` when a certificate cannot be made, `ChildProcess.Failure` when
    ///   s_server does not report its port within `deadline`, or what starting `openssl` throws.
    init(deadline: Duration = .seconds(30)) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-probe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        certificatePath = directory.appendingPathComponent("certificate.pem").path
        let keyPath = directory.appendingPathComponent("key.pem").path
        let request = try await ChildProcess.run([
            "/usr/bin/env", "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
            "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", keyPath, "-out", certificatePath, "-days", "1",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ])
        guard request.status == 0 else {
            throw TestFailure("openssl req failed with status \(request.status):\n\(request.output)")
        }

        // Close-on-exec on both ends: other tests' children must not hold s_server's input open
        // (dup2 onto s_server's standard input clears the flag there).
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        input = ends[1]
        defer { close(ends[0]) }
        // Port 0: the kernel picks a free port, and s_server prints it ("ACCEPT 127.0.0.1:PORT").
        do {
            server = try ChildProcess(
                [
                    "/usr/bin/env", "openssl", "s_server", "-accept", "127.0.0.1:0", "-cert", certificatePath,
                    "-key", keyPath, "-msg",
                ], output: directory.appendingPathComponent("s_server.log").path, input: ends[0])
        } catch {
            close(ends[1])
            throw error
        }
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
    var output: String { server.output }

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
    /// - Throws: `ChildProcess.Failure` with `what` and the output so far, if not within `deadline`
    ///   or once the server has stopped.
    func waitFor<T>(_ what: String, within deadline: Duration = .seconds(30), _ extract: (String) -> T?) async throws
        -> T
    {
        try await server.waitForOutput(what, within: deadline, extract)
    }

    /// Stops the server and removes its files.
    func stop() {
        guard !stopped else { return }
        stopped = true
        // SIGKILL, not SIGTERM: the child inherits the test runner thread's blocked signal mask,
        // so a SIGTERM could stay pending forever (seen here). It ends at once, so the blocking
        // wait is short.
        server.kill()
        close(input)
        try? FileManager.default.removeItem(at: directory)
    }
}
