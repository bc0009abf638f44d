import Foundation
import Primitives
import Testing

@testable import ContactCenter

/// The contact record shapes of the data model (see ``ContactTraceRecordSamples``), decoded
/// field by field.
@Suite("ContactTraceRecord published shapes")
struct ContactTraceRecordSampleTests {
    private typealias Samples = ContactTraceRecordSamples

    private func decode(_ json: String) throws -> ContactTraceRecord {
        try ContactTraceRecord(jsonData: Data(json.utf8))
    }

    private static func at(_ text: String) -> UTCTimestamp { UTCTimestamp(iso8601: text)! }

    @Test("decodes every shape, keeping its bytes", arguments: ContactTraceRecordSamples.all.map(\.name))
    func decodesEverySample(name: String) throws {
        let json = try #require(Samples.all.first { $0.name == name }).json
        let record = try decode(json)
        #expect(record.contactId.hasPrefix("c-"))
        #expect(record.rawJSON == Data(json.utf8))
        #expect(record.agentConnectionAttempts != nil)
    }

    @Test("an abandoned contact: null Agent, a queue with EnqueueTimestamp, first of its chain")
    func abandoned() throws {
        let record = try decode(Samples.abandoned)
        #expect(record.agent == nil)
        #expect(
            record.queue
                == .init(
                    arn: Samples.queue, name: "Reservations", enqueueTimestamp: Self.at("2024-05-13T10:00:08Z"),
                    dequeueTimestamp: Self.at("2024-05-13T10:01:10Z"), duration: 62))
        #expect(record.agentConnectionAttempts == 0)
        #expect(record.disconnectReason == "CUSTOMER_DISCONNECT")
        #expect(record.initialContactId == nil && record.previousContactId == nil && record.nextContactId == nil)
        #expect(record.transferCompletedTimestamp == nil)
        #expect(record.transferredToEndpoint == nil)
        #expect(record.isAbandoned)
        #expect(!record.isAnswered)
        #expect(record.queueDurationSeconds == 62)
        #expect(record.storeId == "seattle-001")
        #expect(record.lastUpdateTimestamp == Self.at("2024-05-13T10:02:11Z"))
    }

    @Test("transferred out: TransferCompletedTimestamp, TransferredToEndpoint, attempts, hierarchy names")
    func transferredOut() throws {
        let record = try decode(Samples.answeredTransferredOut)
        #expect(record.transferCompletedTimestamp == Self.at("2024-05-13T10:09:00Z"))
        #expect(record.transferredToEndpoint == .init(address: "+12065550142", type: "TELEPHONE_NUMBER"))
        #expect(record.agentConnectionAttempts == 2)
        #expect(record.disconnectReason == "THIRD_PARTY_DISCONNECT")
        let agent = try #require(record.agent)
        let group = "\(Samples.instance)/agent-group"
        #expect(
            agent.hierarchyGroups
                == AgentHierarchyGroups(
                    level1: ResourceReference(arn: "\(group)/g1", name: "Americas"),
                    level2: ResourceReference(arn: "\(group)/g2", name: "Washington"),
                    level3: ResourceReference(arn: "\(group)/g3", name: "Seattle"),
                    level4: ResourceReference(arn: "\(group)/g4", name: "Downtown"),
                    level5: ResourceReference(arn: "\(group)/g5", name: "Team Pike")))
        #expect(
            agent
                == .init(
                    arn: Samples.agent, username: "jdoe", connectedToAgentTimestamp: Self.at("2024-05-13T10:02:40Z"),
                    agentInteractionDuration: 372, afterContactWorkStartTimestamp: Self.at("2024-05-13T10:09:00Z"),
                    afterContactWorkEndTimestamp: Self.at("2024-05-13T10:09:31Z"), afterContactWorkDuration: 31,
                    customerHoldDuration: 18, numberOfHolds: 1, longestHoldDuration: 18,
                    routingProfile: ResourceReference(arn: Samples.profile, name: "Reservations"),
                    hierarchyGroups: agent.hierarchyGroups))
        #expect(record.isAnswered)
        #expect(record.handleTimeSeconds == 372 + 18 + 31)
        #expect(record.attributes == ["storeId": "seattle-001", "intent": "catering"])
    }

    @Test("the members kept only in raw JSON survive byte for byte")
    func rawOnlyMembers() throws {
        let record = try decode(Samples.answeredTransferredOut)
        let raw = try #require(record.rawJSON)
        let object = try #require(try JSONSerialization.jsonObject(with: raw) as? [String: Any])
        let quality = try #require(object["QualityMetrics"] as? [String: Any])
        let customer = try #require((quality["Customer"] as? [String: Any])?["Audio"] as? [String: Any])
        #expect(customer["PotentialQualityIssues"] as? [String] == ["HighPacketLoss"])
        #expect((object["Recordings"] as? [Any])?.count == 1)
        #expect((object["Tags"] as? [String: String])?["Department"] == "Reservations")
        let device = (object["Agent"] as? [String: Any])?["DeviceInfo"] as? [String: String]
        #expect(device?["PlatformName"] == "Chrome")
        let segment = (object["SegmentAttributes"] as? [String: Any])?["connect:Subtype"] as? [String: String]
        #expect(segment?["ValueString"] == "connect:Telephony")
    }

    @Test("a callback chain: the original names its callback, the callback names the original")
    func callbackChain() throws {
        let original = try decode(Samples.callbackRequested)
        #expect(original.initiationMethod == "INBOUND")
        #expect(original.nextContactId == "c-callback")
        #expect(original.initialContactId == nil && original.previousContactId == nil)
        #expect(original.agent == nil)
        #expect(original.agentConnectionAttempts == 0)
        #expect(original.disconnectReason == "CONTACT_FLOW_DISCONNECT")

        let callback = try decode(Samples.callback)
        #expect(callback.initiationMethod == "CALLBACK")
        #expect(callback.initialContactId == "c-original")
        #expect(callback.previousContactId == "c-original")
        #expect(callback.nextContactId == nil)
        #expect(callback.queue?.arn == Samples.callbackQueue)
        #expect(callback.queue?.name == "Callbacks")
        #expect(callback.agent?.hierarchyGroups == nil)
        #expect(callback.systemEndpoint == .init(address: "Softphone", type: "TELEPHONE_NUMBER"))
        #expect(callback.connectedToSystemTimestamp == Self.at("2024-05-13T11:20:12Z"))
        #expect(callback.isAnswered)
    }

    @Test("agent transfers and queue transfers are chained contacts")
    func transfers() throws {
        let transfer = try decode(Samples.agentTransfer)
        #expect(transfer.initiationMethod == "TRANSFER")
        #expect(transfer.initialContactId == "c-transfer-1")
        #expect(transfer.previousContactId == "c-transfer-1")
        #expect(transfer.agent?.username == "asmith")
        #expect(transfer.channel == .voice)
        // Nothing but ContactId and a timestamp is required: no attributes, endpoints or AWS ids.
        #expect(transfer.attributes.isEmpty && transfer.customerEndpoint == nil)

        let queueTransfer = try decode(Samples.queueTransfer)
        #expect(queueTransfer.initiationMethod == "QUEUE_TRANSFER")
        #expect(queueTransfer.previousContactId == "c-queue-1")
        #expect(queueTransfer.initialContactId == "c-queue-1")
        #expect(queueTransfer.queue?.enqueueTimestamp == Self.at("2024-05-13T13:02:02Z"))
        #expect(queueTransfer.agent == nil)
    }

    @Test("outbound calls: agent-dialled and campaign")
    func outbound() throws {
        let dialled = try decode(Samples.outbound)
        #expect(dialled.initiationMethod == "OUTBOUND")
        #expect(
            dialled.queue == .init(arn: Samples.outboundQueue, name: "Outbound", enqueueTimestamp: nil, duration: 0))
        #expect(dialled.connectedToSystemTimestamp == Self.at("2024-05-13T14:00:09Z"))
        #expect(dialled.customerEndpoint?.address == "+12065550103")
        #expect(dialled.isAnswered && !dialled.isAbandoned)

        let campaign = try decode(Samples.campaign)
        #expect(campaign.initiationMethod == "API")
        #expect(campaign.queue == nil && campaign.agent == nil)
        #expect(!campaign.isAbandoned)
    }

    @Test("chat, task and email channels")
    func channels() throws {
        let chat = try decode(Samples.chat)
        #expect(chat.channel == .chat)
        #expect(chat.customerEndpoint == nil && chat.systemEndpoint == nil)
        #expect(chat.agent?.afterContactWorkDuration == 12)
        #expect(chat.handleTimeSeconds == 410 + 12)

        let task = try decode(Samples.task)
        #expect(task.channel == .task)
        #expect(task.initiationMethod == "API")
        #expect(task.initiationTimestamp == Self.at("2024-05-13T17:00:00Z"))
        #expect(task.queueDurationSeconds == 3)

        let email = try decode(Samples.email)
        #expect(email.channel == .email)
        #expect(email.customerEndpoint == .init(address: "guest@example.com", type: "EMAIL_ADDRESS"))
        #expect(email.disconnectReason == nil)
    }

    @Test(
        "still rejects what is truly unusable in the new members, naming the path",
        arguments: [
            (
                #""AgentConnectionAttempts":2"#, #""AgentConnectionAttempts":"2""#, "AgentConnectionAttempts",
                #"expected a whole number of attempts (a JSON number), found a string "2""#
            ),
            (
                #""AgentConnectionAttempts":2"#, #""AgentConnectionAttempts":-1"#, "AgentConnectionAttempts",
                "expected a non-negative whole number of attempts, got -1"
            ),
            (
                #""TransferCompletedTimestamp":"2024-05-13T10:09:00Z""#, #""TransferCompletedTimestamp":"10:09""#,
                "TransferCompletedTimestamp",
                #"expected an ISO 8601 UTC timestamp such as "2026-11-20T09:15:02Z" or "2026-11-20T09:15:02.123Z", got "10:09""#
            ),
            (
                #""TransferredToEndpoint":{"#, #""TransferredToEndpoint":"+12065550142","Ignored":{"#,
                "TransferredToEndpoint", #"expected an object, found a string "+12065550142""#
            ),
            (
                #""Level3":{"#, #""Level3":["Seattle"],"Ignored":{"#, "Agent.HierarchyGroups.Level3",
                "expected an object, found an array"
            ),
            (
                #""GroupName":"Team Pike""#, #""GroupName":5"#, "Agent.HierarchyGroups.Level5.GroupName",
                "expected a string, found a number 5"
            ),
        ])
    func unusable(target: String, replacement: String, path: String, reason: String) {
        let data = Fixtures.replacing(target, with: replacement, in: Samples.answeredTransferredOut)
        #expect(throws: JSONDecodingError(message: "ContactTraceRecord", path: path, reason: reason)) {
            try ContactTraceRecord(jsonData: data)
        }
    }
}
