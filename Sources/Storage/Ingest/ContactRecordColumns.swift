import ContactCenter
import Foundation

/// The columns of a contact record batch, built in one pass and sent as binary array binds.
struct ContactRecordColumns: Sendable {
    var contactID: ArrayColumn<String>
    var initialContactID: ArrayColumn<String>
    var previousContactID: ArrayColumn<String>
    var nextContactID: ArrayColumn<String>
    var channel: ArrayColumn<String>
    var initiationMethod: ArrayColumn<String>
    var initiation: ArrayColumn<UTCTimestamp>
    var connectedToSystem: ArrayColumn<UTCTimestamp>
    var disconnect: ArrayColumn<UTCTimestamp>
    var disconnectReason: ArrayColumn<String>
    var queueName: ArrayColumn<String>
    var queueARN: ArrayColumn<String>
    var enqueue: ArrayColumn<UTCTimestamp>
    var dequeue: ArrayColumn<UTCTimestamp>
    var queueDuration: ArrayColumn<Int32>
    var agentUsername: ArrayColumn<String>
    var agentARN: ArrayColumn<String>
    var connectedToAgent: ArrayColumn<UTCTimestamp>
    var agentInteraction: ArrayColumn<Int32>
    var customerHold: ArrayColumn<Int32>
    var acwStart: ArrayColumn<UTCTimestamp>
    var acwEnd: ArrayColumn<UTCTimestamp>
    var acw: ArrayColumn<Int32>
    var numberOfHolds: ArrayColumn<Int32>
    var longestHold: ArrayColumn<Int32>
    var routingProfile: ArrayColumn<String>
    var dialedNumber: ArrayColumn<String>
    var customerNumber: ArrayColumn<String>
    var storeID: ArrayColumn<String>
    var attributes: ArrayColumn<JSONBValue>
    var raw: ArrayColumn<JSONBValue>
    var lastUpdate: ArrayColumn<UTCTimestamp>
    var partition: ArrayColumn<Int32>
    var offset: ArrayColumn<Int64>
    var copies: ArrayColumn<Int32>

    init(capacity: Int) {
        contactID = .init(capacity: capacity)
        initialContactID = .init(capacity: capacity)
        previousContactID = .init(capacity: capacity)
        nextContactID = .init(capacity: capacity)
        channel = .init(capacity: capacity)
        initiationMethod = .init(capacity: capacity)
        initiation = .init(capacity: capacity)
        connectedToSystem = .init(capacity: capacity)
        disconnect = .init(capacity: capacity)
        disconnectReason = .init(capacity: capacity)
        queueName = .init(capacity: capacity)
        queueARN = .init(capacity: capacity)
        enqueue = .init(capacity: capacity)
        dequeue = .init(capacity: capacity)
        queueDuration = .init(capacity: capacity)
        agentUsername = .init(capacity: capacity)
        agentARN = .init(capacity: capacity)
        connectedToAgent = .init(capacity: capacity)
        agentInteraction = .init(capacity: capacity)
        customerHold = .init(capacity: capacity)
        acwStart = .init(capacity: capacity)
        acwEnd = .init(capacity: capacity)
        acw = .init(capacity: capacity)
        numberOfHolds = .init(capacity: capacity)
        longestHold = .init(capacity: capacity)
        routingProfile = .init(capacity: capacity)
        dialedNumber = .init(capacity: capacity)
        customerNumber = .init(capacity: capacity)
        storeID = .init(capacity: capacity)
        attributes = .init(capacity: capacity)
        raw = .init(capacity: capacity)
        lastUpdate = .init(capacity: capacity)
        partition = .init(capacity: capacity)
        offset = .init(capacity: capacity)
        copies = .init(capacity: capacity)
    }

    mutating func append(_ sourced: IngestBatch.Sourced<ContactTraceRecord>, copies count: Int) {
        let record = sourced.value
        contactID.append(record.contactId)
        initialContactID.append(record.initialContactId)
        previousContactID.append(record.previousContactId)
        nextContactID.append(record.nextContactId)
        channel.append(record.channel?.rawValue)
        initiationMethod.append(record.initiationMethod)
        initiation.append(record.initiationTimestamp)
        connectedToSystem.append(record.connectedToSystemTimestamp)
        disconnect.append(record.disconnectTimestamp)
        disconnectReason.append(record.disconnectReason)
        queueName.append(record.queue?.name)
        queueARN.append(record.queue?.arn)
        enqueue.append(record.queue?.enqueueTimestamp)
        dequeue.append(record.queue?.dequeueTimestamp)
        queueDuration.append(record.queue?.duration.map(Int32.init(clamping:)))
        agentUsername.append(record.agent?.username)
        agentARN.append(record.agent?.arn)
        connectedToAgent.append(record.agent?.connectedToAgentTimestamp)
        agentInteraction.append(record.agent?.agentInteractionDuration.map(Int32.init(clamping:)))
        customerHold.append(record.agent?.customerHoldDuration.map(Int32.init(clamping:)))
        acwStart.append(record.agent?.afterContactWorkStartTimestamp)
        acwEnd.append(record.agent?.afterContactWorkEndTimestamp)
        acw.append(record.agent?.afterContactWorkDuration.map(Int32.init(clamping:)))
        numberOfHolds.append(record.agent?.numberOfHolds.map(Int32.init(clamping:)))
        longestHold.append(record.agent?.longestHoldDuration.map(Int32.init(clamping:)))
        routingProfile.append(record.agent?.routingProfile?.name)
        dialedNumber.append(record.systemEndpoint?.address)
        customerNumber.append(record.customerEndpoint?.address)
        storeID.append(record.storeId)
        attributes.append(JSONBValue(bytes: Self.json(record.attributes)))
        raw.append(JSONBValue(bytes: record.rawJSON ?? record.jsonData()))
        lastUpdate.append(record.lastUpdateTimestamp)
        partition.append(sourced.partition)
        offset.append(sourced.offset)
        copies.append(Int32(clamping: count))
    }

    /// A string map as a JSON object, written by hand: faster than a general encoder per row.
    static func json(_ attributes: [String: String]) -> Data {
        var output = [UInt8]()
        output.reserveCapacity(attributes.count * 32 + 2)
        output.append(UInt8(ascii: "{"))
        var first = true
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            appendString(key, to: &output)
            output.append(UInt8(ascii: ":"))
            appendString(value, to: &output)
        }
        output.append(UInt8(ascii: "}"))
        return Data(output)
    }

    private static func appendString(_ string: String, to output: inout [UInt8]) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x00..<0x20:
                output += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")]
                output += [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
