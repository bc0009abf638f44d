import Foundation
import Hummingbird
import HummingbirdTesting
import Roles
import Server
import Services
import SwitchboardTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Flow store: reload on change, refuse invalid sets", .watched)
struct FlowStoreTests {
    /// The hook's routes and `/ready` over `store`, in process.
    func withHook(_ store: FlowStore, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void)
        async throws
    {
        let router = buildRouter(
            dependencies: ServerDependencies(
                readinessChecks: [FlowReadinessCheck(store: store)], routeProviders: [HookRoutes(store: store)]))
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        // Over a socket from 127.0.0.1: /ready shows its details to a caller on loopback only.
        try await app.test(.live) { client in try await body(client) }
    }

    /// A temporary copy of the shipped `flows/`, removed after `body`.
    func withFlowsCopy(_ body: (String) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("switchboard-flows-\(UUID().uuidString)").path
        try FileManager.default.copyItem(atPath: Repository.flowsDirectory, toPath: directory)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await body(directory)
    }

    func edit(_ directory: String, _ file: String, _ change: (String) -> String) throws {
        let path = directory + "/" + file
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try change(text).write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test("a valid change is swapped in; an unchanged directory is not reloaded")
    func validChange() async throws {
        try await withFlowsCopy { directory in
            let store = FlowStore(directory: directory)
            guard case .loaded(let first) = store.reload() else {
                Issue.record("the shipped flows did not load")
                return
            }
            guard case .unchanged = store.reload() else {
                Issue.record("an unchanged directory was reloaded")
                return
            }
            try edit(directory, "stores.yaml") { $0.replacingOccurrences(of: "鮨 はる 銀座", with: "鮨 はる 銀座本店") }
            guard case .loaded(let second) = store.reload() else {
                Issue.record("the valid change was not loaded")
                return
            }
            #expect(first !== second)
            #expect(store.current === second)
            #expect(store.current?.flows.store(id: "ginza-sushi")?.name == "鮨 はる 銀座本店")
            // A new file counts as a change, and *.txt files are ignored.
            try "flows: []\n".write(toFile: directory + "/extra.yml", atomically: true, encoding: .utf8)
            try "not yaml: [".write(toFile: directory + "/notes.txt", atomically: true, encoding: .utf8)
            guard case .loaded(let third) = store.reload() else {
                Issue.record("the new file was not loaded")
                return
            }
            #expect(third.fileNames.contains("extra.yml"))
            #expect(!third.fileNames.contains("notes.txt"))
        }
    }

    @Test("a Kubernetes ConfigMap update (the `..data` link swapped to a new directory) is picked up")
    func configMapSwap() async throws {
        let manager = FileManager.default
        let volume = manager.temporaryDirectory.appendingPathComponent("switchboard-configmap-\(UUID().uuidString)")
            .path
        defer { try? manager.removeItem(atPath: volume) }
        // The layout the kubelet writes: ..<timestamp>/files, ..data -> ..<timestamp>, name -> ..data/name.
        let names = try manager.contentsOfDirectory(atPath: Repository.flowsDirectory).filter { $0.hasSuffix(".yaml") }
        try manager.createDirectory(atPath: volume + "/..2026_11_22_01", withIntermediateDirectories: true)
        for name in names {
            try manager.copyItem(
                atPath: Repository.flowsDirectory + "/" + name, toPath: volume + "/..2026_11_22_01/" + name)
            try manager.createSymbolicLink(atPath: volume + "/" + name, withDestinationPath: "..data/" + name)
        }
        try manager.createSymbolicLink(atPath: volume + "/..data", withDestinationPath: "..2026_11_22_01")
        let store = FlowStore(directory: volume)
        guard case .loaded = store.reload() else {
            Issue.record("the ConfigMap layout did not load")
            return
        }
        #expect(store.current?.flows.store(id: "ginza-sushi")?.name == "鮨 はる 銀座")

        // The update: a new directory with a same-length change and the old timestamps, then an
        // atomic rename of a new link over `..data`. No `name.yaml` link changes.
        try manager.copyItem(atPath: volume + "/..2026_11_22_01", toPath: volume + "/..2026_11_22_02")
        let edited = volume + "/..2026_11_22_02/stores.yaml"
        var before = stat()
        #expect(stat(volume + "/..2026_11_22_01/stores.yaml", &before) == 0)
        let text = try String(contentsOfFile: edited, encoding: .utf8)
        try text.replacingOccurrences(of: "鮨 はる 銀座", with: "鮨 なつ 銀座").write(
            toFile: edited, atomically: false, encoding: .utf8)
        // The old file's exact modification time (nanoseconds), so only the inode tells them apart.
        let times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, edited, times, 0) == 0)
        var after = stat()
        #expect(stat(edited, &after) == 0)
        #expect(after.st_size == before.st_size)
        #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        try manager.createSymbolicLink(atPath: volume + "/..data_tmp", withDestinationPath: "..2026_11_22_02")
        #expect(rename(volume + "/..data_tmp", volume + "/..data") == 0)
        try manager.removeItem(atPath: volume + "/..2026_11_22_01")

        guard case .loaded = store.reload() else {
            Issue.record("the swapped ConfigMap was not reloaded")
            return
        }
        #expect(store.current?.flows.store(id: "ginza-sushi")?.name == "鮨 なつ 銀座")
        guard case .unchanged = store.reload() else {
            Issue.record("an unchanged ConfigMap was reloaded")
            return
        }
    }

    @Test("a link to nothing in flows/ is refused like an unreadable file; the last good set keeps serving")
    func danglingLink() async throws {
        try await withFlowsCopy { directory in
            let store = FlowStore(directory: directory)
            guard case .loaded(let first) = store.reload() else {
                Issue.record("the shipped flows did not load")
                return
            }
            try FileManager.default.createSymbolicLink(
                atPath: directory + "/extra.yaml", withDestinationPath: directory + "/gone.yaml")
            guard case .refused(let reason) = store.reload() else {
                Issue.record("a dangling link was not refused")
                return
            }
            #expect(reason.contains("extra.yaml"), "\(reason)")
            #expect(store.current === first)
        }
    }

    @Test("an invalid change is refused: the old set keeps serving, /ready shows the error")
    func invalidChange() async throws {
        try await withFlowsCopy { directory in
            let store = FlowStore(directory: directory)
            store.reload()
            let good = try #require(store.current)
            try edit(directory, "stores.yaml") {
                $0.replacingOccurrences(of: "hours: sushi-counter", with: "hours: sushi-countr")
            }
            guard case .refused(let message) = store.reload() else {
                Issue.record("the invalid change was not refused")
                return
            }
            #expect(message.contains("stores.yaml:"))
            #expect(message.contains("unknown hours profile \"sushi-countr\""))
            #expect(store.current === good)
            // Not retried while the files stay the same.
            guard case .unchanged = store.reload() else {
                Issue.record("refused files were reloaded again")
                return
            }

            // The hook keeps answering from the good set; /ready is ready and names the error.
            try await withHook(store) { client in
                try await client.execute(
                    uri: "/v1/hooks/main", method: .post, body: ByteBuffer(string: #"{"storeId":"ginza-sushi"}"#)
                ) { response in
                    #expect(response.status == .ok)
                    let answer = try JSONDecoder().decode(
                        [String: String].self, from: Data(response.body.readableBytesView))
                    #expect(answer["storeName"] == "鮨 はる 銀座")
                }
                try await client.execute(uri: "/ready", method: .get) { response in
                    #expect(response.status == .ok)
                    let text = String(buffer: response.body)
                    #expect(text.contains("last reload refused"))
                    #expect(text.contains("sushi-countr"))
                }
            }

            // Fixing the file clears the error.
            try edit(directory, "stores.yaml") {
                $0.replacingOccurrences(of: "hours: sushi-countr", with: "hours: sushi-counter")
            }
            guard case .loaded = store.reload() else {
                Issue.record("the fixed set was not loaded")
                return
            }
            #expect(store.status.lastError == nil)
            let status = await FlowReadinessCheck(store: store).check()
            #expect(status.ready && !status.detail.contains("refused"))
        }
    }

    @Test("no valid set ever loaded: not ready, and the hook answers 503 (not a client error)")
    func neverLoaded() async throws {
        try await withFlowsCopy { directory in
            try "stores: [".write(toFile: directory + "/broken.yaml", atomically: true, encoding: .utf8)
            let store = FlowStore(directory: directory)
            guard case .refused(let message) = store.reload() else {
                Issue.record("a broken set was loaded")
                return
            }
            #expect(message.contains("broken.yaml:2:1: invalid YAML"))
            let status = await FlowReadinessCheck(store: store).check()
            #expect(!status.ready)
            #expect(status.detail.contains("broken.yaml"))
            try await withHook(store) { client in
                try await client.execute(uri: "/v1/hooks/main", method: .post, body: ByteBuffer(string: "{}")) {
                    #expect($0.status == .serviceUnavailable)
                }
                try await client.execute(uri: "/ready", method: .get) { #expect($0.status == .serviceUnavailable) }
                // The calendar does not need flows.
                try await client.execute(uri: "/v1/calendar/2026", method: .get) { #expect($0.status == .ok) }
            }
        }
        let missing = FlowStore(directory: "/nonexistent/flows")
        guard case .refused(let message) = missing.reload() else {
            Issue.record("a missing directory was loaded")
            return
        }
        #expect(message.contains("/nonexistent/flows"))
    }

    @Test(
        "the reload service picks up a change by polling, and reloads on demand", .timeLimit(.minutes(1)))
    func reloadService() async throws {
        try await withFlowsCopy { directory in
            let store = FlowStore(directory: directory)
            // Each load the polling makes is announced: the test waits for the one with the
            // change, however late the poll runs (a clock deadline fails when other suites keep
            // the cooperative pool's threads busy for a few seconds).
            let (loads, announce) = AsyncStream.makeStream(of: String?.self)
            let service = FlowReloadService(
                store: store, pollInterval: .milliseconds(50), reloadOnHangup: false,
                onLoad: { loaded in announce.yield(loaded.flows.store(id: "tsukiji-sushi")?.name) })
            guard case .loaded = await service.reload(force: true) else {
                Issue.record("the initial load failed")
                return
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await service.run() }
                try edit(directory, "stores.yaml") { $0.replacingOccurrences(of: "築地 寿司 まる", with: "築地 寿司 まる 新館") }
                var seen: String?
                for await name in loads where name == "築地 寿司 まる 新館" {
                    seen = name
                    break
                }
                #expect(seen == "築地 寿司 まる 新館")
                #expect(store.current?.flows.store(id: "tsukiji-sushi")?.name == "築地 寿司 まる 新館")
                group.cancelAll()
            }
        }
    }
}
