import ContactCenter
import Foundation
import Primitives

/// One message of the floor streams, encoded once and shared by every subscriber.
///
/// Wire forms (one JSON object per WebSocket text message or SSE `data:` line):
/// - `{"type":"snapshot","epoch":E,"seq":N,"view":{…}}`: the whole view as of sequence `N`;
/// - `{"type":"delta","epoch":E,"seq":N,"delta":{…}}`: the change from `N-1` to `N`;
/// - `{"type":"heartbeat","epoch":E,"seq":N}`: nothing changed; the connection is alive.
///
/// `epoch` names the publisher instance: sequence numbers of another replica, or of a restarted
/// process, mean nothing here, so a resume with a foreign epoch gets a fresh snapshot.
public struct FloorMessage: Sendable, Hashable {
    /// What the message carries.
    public enum Kind: String, Sendable, Hashable {
        case snapshot
        case delta
        case heartbeat
    }

    /// What the message carries.
    public var kind: Kind
    /// The sequence number: of the view for snapshots and heartbeats, of the change for deltas.
    public var seq: UInt64
    /// The publisher's epoch.
    public var epoch: String
    /// The message as JSON text.
    public var json: String

    /// Encodes a snapshot of `view` at `seq`.
    static func snapshot(_ view: FloorView, seq: UInt64, epoch: String) -> FloorMessage {
        FloorMessage(
            kind: .snapshot, seq: seq, epoch: epoch, json: encode(.snapshot, seq: seq, epoch: epoch, "view", view))
    }

    /// Encodes the delta that makes sequence `seq`.
    static func delta(_ delta: FloorDelta, seq: UInt64, epoch: String) -> FloorMessage {
        FloorMessage(kind: .delta, seq: seq, epoch: epoch, json: encode(.delta, seq: seq, epoch: epoch, "delta", delta))
    }

    /// A heartbeat at `seq`.
    static func heartbeat(seq: UInt64, epoch: String) -> FloorMessage {
        FloorMessage(
            kind: .heartbeat, seq: seq, epoch: epoch,
            json: #"{"epoch":"\#(epoch)","seq":\#(seq),"type":"heartbeat"}"#)
    }

    /// The SSE event id of this message: `EPOCH:SEQ`, sent back by browsers as `Last-Event-ID`.
    public var eventID: String { "\(epoch):\(seq)" }

    private static var encoder: JSONEncoder { JSONCoding.encoder }

    /// `{"epoch":…,"seq":…,"type":…,"<member>":<payload>}` with the payload encoded by `JSONEncoder`.
    private static func encode(
        _ kind: Kind, seq: UInt64, epoch: String, _ member: String, _ payload: some Encodable
    ) -> String {
        let body = (try? encoder.encode(payload)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
        return #"{"epoch":"\#(epoch)","seq":\#(seq),"type":"\#(kind.rawValue)","\#(member)":\#(body)}"#
    }
}
