/// Contact event shapes as AWS publishes them, written for these tests from the Amazon Connect
/// administrator guide page "Amazon Connect contact events": its data model (PascalCase member
/// names: `EventType`, `ContactId`, `QueueInfo.QueueArn`, `AgentInfo.AgentArn`, the "Contact
/// timestamps" section) and its samples (camelCase `detail`, sometimes without the EventBridge
/// envelope, sometimes mixing both cases in one object). Placeholder values (`"arn"`,
/// `"type"`, `arn:aws::connect:…`) are kept as the page prints them; the one trailing comma of
/// the disconnected sample is removed so the fixture is valid JSON.
enum ContactEventSamples {
    static let contactId = "11111111-1111-1111-1111-111111111111"
    static let initialContactId = "11111111-2222-3333-4444-555555555555"
    static let instance = "arn:aws::connect:us-west-2:123456789012:instance/12345678-1234-1234-1234-123456789012"

    /// "Sample contact event for when a voice call is connected to an agent": the bare
    /// `detail`, camelCase, no envelope.
    static let connectedToAgentBare = #"""
        {"initiationTimestamp":"2021-08-04T17:17:53.000Z",
         "contactId":"11111111-1111-1111-1111-111111111111",
         "channel":"VOICE",
         "instanceArn":"arn:aws::connect:us-west-2:123456789012:instance/12345678-1234-1234-1234-123456789012",
         "initiationMethod":"INBOUND",
         "eventType":"CONNECTED_TO_AGENT",
         "agentInfo":{
           "agentArn":"arn:aws::connect:us-west-2:123456789012:instance/12345678-1234-1234-1234-123456789012/agent/12345678-1234-1234-1234-123456789012",
           "connectedToAgentTimestamp":"2021-08-04T17:29:09.000Z"},
         "queueInfo":{"queueType":"type",
           "queueArn":"arn:aws::connect:us-west-2:123456789012:instance/12345678-1234-1234-1234-123456789012/queue/12345678-1234-1234-1234-123456789012",
           "enqueueTimestamp":"2021-08-04T17:29:04.000Z"}}
        """#

    /// "Sample contact event for when a voice call is disconnected": the envelope around a
    /// `detail` that mixes cases (`AgentInfo.AgentArn` next to `connectedToAgentTimestamp`),
    /// writes the channel `Voice`, and carries `CustomerVoiceActivity`.
    static let disconnectedMixedCase = #"""
        {"version":"0","id":"abcabcab-abca-abca-abca-abcabcabcabc","detail-type":"Amazon Connect Contact Event",
         "source":"aws.connect","account":"111122223333","time":"2021-08-04T17:43:48Z","region":"us-west-1",
         "resources":["arn:aws:...","contactArn","instanceArn"],
         "detail":{
           "eventType":"DISCONNECTED",
           "contactId":"11111111-1111-1111-1111-111111111111",
           "initialContactId":"11111111-2222-3333-4444-555555555555",
           "previousContactId":"11111111-2222-3333-4444-555555555555",
           "channel":"Voice",
           "instanceArn":"arn:aws::connect:us-west-2:123456789012:instance/12345678-1234-1234-1234-123456789012",
           "initiationMethod":"OUTBOUND",
           "initiationTimestamp":"2021-08-04T17:17:53.000Z",
           "connectedToSystemTimestamp":"2021-08-04T17:17:55.000Z",
           "disconnectTimestamp":"2021-08-04T17:18:37.000Z",
           "queueInfo":{"queueArn":"arn","queueType":"type","enqueueTimestamp":"2021-08-04T17:29:04.000Z"},
           "AgentInfo":{"AgentArn":"arn","connectedToAgentTimestamp":"2021-08-04T17:29:09.000Z"},
           "CustomerVoiceActivity":{"greetingStartTimestamp":"2021-08-04T17:29:20.000Z",
             "greetingEndTimestamp":"2021-08-04T17:29:22.000Z"}}}
        """#

    /// The same page's earlier connected-to-agent sample: the envelope, `instanceARN`, and
    /// `AgentInfo {AgentArn, RoutingProfileArn}`; the queue has no enqueue timestamp.
    static let connectedToAgentEarlier = #"""
        {"version":"0","id":"abcabcab-abca-abca-abca-abcabcabcabc","detail-type":"Amazon Connect Contact Event",
         "source":"aws.connect","account":"111122223333","time":"2021-05-01T18:43:48Z","region":"us-west-1",
         "resources":["arn:aws...","contactArn","instanceArn"],
         "detail":{
           "eventType":"CONNECTED_TO_AGENT",
           "contactId":"11111111-1111-1111-1111-111111111111",
           "initialContactId":"11111111-2222-3333-4444-555555555555",
           "previousContactId":"11111111-2222-3333-4444-555555555555",
           "channel":"Voice",
           "instanceARN":"arn:aws:connect:us-west-2:123456789012:instance/12345678-1234-1234-1234-123456789012",
           "initiationMethod":"INBOUND",
           "queueInfo":{"queueArn":"arn","queueType":"type"},
           "AgentInfo":{"AgentArn":"arn","RoutingProfileArn":"arn"}}}
        """#

    /// A `QUEUED` event whose `detail` uses the data model's PascalCase member names throughout,
    /// in the envelope.
    static let queuedPascalCase = #"""
        {"version":"0","id":"6f1c2a3b-0000-4000-8000-000000000001","detail-type":"Amazon Connect Contact Event",
         "source":"aws.connect","account":"123456789012","time":"2021-08-04T17:29:04Z","region":"us-west-2",
         "resources":["arn:aws:connect:us-west-2:123456789012:instance/12345678-1234-1234-1234-123456789012/contact/11111111-1111-1111-1111-111111111111",
           "arn:aws:connect:us-west-2:123456789012:instance/12345678-1234-1234-1234-123456789012"],
         "detail":{
           "EventType":"QUEUED",
           "ContactId":"11111111-1111-1111-1111-111111111111",
           "InitialContactId":"11111111-2222-3333-4444-555555555555",
           "PreviousContactId":"11111111-2222-3333-4444-555555555555",
           "InstanceArn":"arn:aws:connect:us-west-2:123456789012:instance/12345678-1234-1234-1234-123456789012",
           "Channel":"VOICE",
           "InitiationMethod":"TRANSFER",
           "InitiationTimestamp":"2021-08-04T17:28:51.000Z",
           "ConnectedToSystemTimestamp":"2021-08-04T17:28:51.000Z",
           "QueueInfo":{"QueueArn":"arn:aws:connect:us-west-2:123456789012:instance/12345678-1234-1234-1234-123456789012/queue/12345678-1234-1234-1234-123456789012",
             "QueueType":"STANDARD","EnqueueTimestamp":"2021-08-04T17:29:04.000Z"}}}
        """#

    /// A `DISCONNECTED` event with a PascalCase `detail`, answered by an agent
    /// (`AgentInfo {AgentArn, ConnectedToAgentTimestamp}`), in the envelope.
    static let disconnectedPascalCase = #"""
        {"version":"0","id":"6f1c2a3b-0000-4000-8000-000000000002","detail-type":"Amazon Connect Contact Event",
         "source":"aws.connect","account":"123456789012","time":"2021-08-04T17:35:12Z","region":"us-west-2",
         "resources":[],
         "detail":{
           "EventType":"DISCONNECTED",
           "ContactId":"11111111-1111-1111-1111-111111111111",
           "InitialContactId":"11111111-2222-3333-4444-555555555555",
           "PreviousContactId":"11111111-2222-3333-4444-555555555555",
           "InstanceArn":"arn:aws:connect:us-west-2:123456789012:instance/12345678-1234-1234-1234-123456789012",
           "Channel":"VOICE",
           "InitiationMethod":"TRANSFER",
           "InitiationTimestamp":"2021-08-04T17:28:51.000Z",
           "DisconnectTimestamp":"2021-08-04T17:35:11.000Z",
           "QueueInfo":{"QueueArn":"arn:aws:connect:us-west-2:123456789012:instance/12345678-1234-1234-1234-123456789012/queue/12345678-1234-1234-1234-123456789012",
             "QueueType":"STANDARD","EnqueueTimestamp":"2021-08-04T17:29:04.000Z"},
           "AgentInfo":{"AgentArn":"arn:aws:connect:us-west-2:123456789012:instance/12345678-1234-1234-1234-123456789012/agent/12345678-1234-1234-1234-123456789012",
             "ConnectedToAgentTimestamp":"2021-08-04T17:29:09.000Z"}}}
        """#

    /// A `COMPLETED` event (after-contact work finished) in camelCase: the current page fills
    /// `agentInfo.afterContactWorkStartTimestamp`, `…EndTimestamp` and `…Duration` on it.
    static let completedCamelCase = #"""
        {"version":"0","id":"6f1c2a3b-0000-4000-8000-000000000003","detail-type":"Amazon Connect Contact Event",
         "source":"aws.connect","account":"123456789012","time":"2021-08-04T17:36:02Z","region":"us-west-2",
         "resources":["arn:aws:connect:us-west-2:123456789012:instance/12345678-1234-1234-1234-123456789012"],
         "detail":{
           "eventType":"COMPLETED",
           "contactId":"11111111-1111-1111-1111-111111111111",
           "channel":"CHAT",
           "instanceArn":"arn:aws:connect:us-west-2:123456789012:instance/12345678-1234-1234-1234-123456789012",
           "initiationMethod":"API",
           "initiationTimestamp":"2021-08-04T17:20:00.000Z",
           "disconnectTimestamp":"2021-08-04T17:35:11.000Z",
           "queueInfo":{"queueArn":"arn:aws:connect:us-west-2:123456789012:instance/12345678-1234-1234-1234-123456789012/queue/12345678-1234-1234-1234-123456789012",
             "queueType":"STANDARD","enqueueTimestamp":"2021-08-04T17:20:02.000Z"},
           "agentInfo":{"agentArn":"arn:aws:connect:us-west-2:123456789012:instance/12345678-1234-1234-1234-123456789012/agent/12345678-1234-1234-1234-123456789012",
             "connectedToAgentTimestamp":"2021-08-04T17:20:09.000Z",
             "afterContactWorkStartTimestamp":"2021-08-04T17:35:11.000Z",
             "afterContactWorkEndTimestamp":"2021-08-04T17:36:01.000Z",
             "afterContactWorkDuration":50}}}
        """#

    /// Every sample, named, for the "decodes every published shape" test.
    static let all: [(name: String, json: String)] = [
        ("connectedToAgentBare", connectedToAgentBare), ("disconnectedMixedCase", disconnectedMixedCase),
        ("connectedToAgentEarlier", connectedToAgentEarlier), ("queuedPascalCase", queuedPascalCase),
        ("disconnectedPascalCase", disconnectedPascalCase), ("completedCamelCase", completedCamelCase),
    ]
}
