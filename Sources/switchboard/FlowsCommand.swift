import ArgumentParser
import Foundation
import OperatingHours
import Roles
import Services

/// `switchboard flows`: check and preview the `flows/` the hook evaluates.
struct FlowsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flows",
        abstract: "Validate flows/ and preview what the IVR hook answers.",
        subcommands: [Check.self, Eval.self]
    )

    /// Loads a directory, or prints every problem (file, line, fix) and exits 1.
    static func load(_ directory: String) throws -> LoadedFlows {
        do {
            return try FlowStore.load(directory: directory)
        } catch {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            throw ExitCode(1)
        }
    }

    /// `switchboard flows check [DIR]`.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate every *.yaml file of a flows/ directory; exit 1 listing each problem.")

        @Argument(help: "The directory (default: SWITCHBOARD_FLOWS_DIR or flows).")
        var directory: String?

        func run() throws {
            let directory = try directory ?? Settings().flowsDirectory
            let loaded = try FlowsCommand.load(directory)
            print("ok: \(directory): \(loaded.summary)")
        }
    }

    /// `switchboard flows eval --store ID --at INSTANT`.
    struct Eval: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the hours decision and the route the hook would answer.",
            discussion: "Example: switchboard flows eval --store shinjuku-izakaya --at 2026-12-31T22:30:00+09:00"
        )

        @Option(help: "The store id.")
        var store: String?

        @Option(help: "The dialed number (instead of --store).")
        var number: String?

        @Option(help: "The instant, ISO 8601 with an offset (default: now).")
        var at: String?

        @Option(help: "The flow.")
        var flow: String = "main"

        @Option(help: "The flows/ directory (default: SWITCHBOARD_FLOWS_DIR or flows).")
        var dir: String?

        @Option(name: .customLong("attribute"), help: "A contact attribute key=value (repeatable).")
        var attributes: [String] = []

        @Flag(help: "Print the hook's JSON answer instead of the readable text.")
        var json = false

        func run() throws {
            let loaded = try FlowsCommand.load(try dir ?? Settings().flowsDirectory)
            var instant = Date()
            if let at {
                do {
                    instant = try ZonedInstant(iso8601: at).date
                } catch {
                    throw ValidationError("--at: \(error)")
                }
            }
            var contact: [String: String] = [:]
            for pair in attributes {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { throw ValidationError("--attribute must be key=value, got \(pair)") }
                contact[String(parts[0])] = String(parts[1])
            }
            let answer = loaded.flows.evaluate(
                flowName: flow, storeId: store, dialedNumber: number, contactAttributes: contact, parameters: [:],
                at: instant)
            print(json ? answer.json : answer.readableText, terminator: json ? "\n" : "")
            if answer.result == .error { throw ExitCode(1) }
        }
    }
}
