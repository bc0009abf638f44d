/// Agent event shapes as AWS publishes them, written for these tests from the Amazon Connect
/// administrator guide: "Agent event streams data model" (the members and their types) and
/// "Sample agent event stream" (the example record). The sample page's `//` comments are
/// dropped and its stray brace and trailing comma fixed, so each fixture is valid JSON.
///
/// None of them carries `AgentStatus.Type`: the data model documents `ARN`, `Name` and
/// `StartTimestamp` only.
enum AgentEventSamples {
    static let instance = "arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111"
    static let agent = "\(instance)/agent/agent-ARN"
    static let offlineStatus = "\(instance)/agent-state/agent-state-ARN"
    static let outboundQueue = "\(instance)/queue/queue-ARN"
    static let agentQueue = "\(instance)/queue/agent/agent-ARN"
    static let profile = "\(instance)/routing-profile/routing-profile-ARN"

    /// The routing profile of the sample page: one call and three chats at a time, a default
    /// outbound queue, the agent's own queue (whose `Name` is `null`) and an omni-channel queue.
    private static let configuration = #"""
        {"AgentHierarchyGroups":null,"FirstName":"AgentEventStreamTest","LastName":"Agent",
         "RoutingProfile":{"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/routing-profile/routing-profile-ARN",
           "Concurrency":[{"AvailableSlots":3,"Channel":"CHAT","MaximumSlots":3},{"AvailableSlots":1,"Channel":"VOICE","MaximumSlots":1}],
           "DefaultOutboundQueue":{"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/queue/queue-ARN",
             "Channels":["VOICE"],"Name":"OutboundQueue"},
           "InboundQueues":[
             {"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/queue/agent/agent-ARN","Channels":["VOICE","CHAT"],"Name":null},
             {"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/queue/queue-ARN","Channels":["CHAT","VOICE"],"Name":"Omni-channel-queue"}],
           "Name":"AgentEventStreamProfile"},
         "Username":"aestest"}
        """#

    /// "Sample agent event stream": a `HEART_BEAT` of an agent in the built-in `Offline` status,
    /// with `Contacts` empty and both snapshots.
    static let heartBeatOffline = #"""
        {"AWSAccountId":"012345678901",
         "AgentARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent/agent-ARN",
         "CurrentAgentSnapshot":{
           "AgentStatus":{"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent-state/agent-state-ARN",
             "Name":"Offline","StartTimestamp":"2019-08-13T20:52:30.704Z"},
           "Configuration":\#(configuration),
           "Contacts":[]},
         "EventId":"EventId-1","EventTimestamp":"2019-08-13T20:58:44.031Z","EventType":"HEART_BEAT",
         "InstanceARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111",
         "PreviousAgentSnapshot":{
           "AgentStatus":{"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent-state/agent-state-ARN",
             "Name":"Offline","StartTimestamp":"2019-08-13T20:52:30.704Z"},
           "Configuration":\#(configuration),
           "Contacts":[]},
         "Version":"2017-10-01"}
        """#

    /// "Sample agent event stream" (current revision): `Available` with a `NextAgentStatus`
    /// (`Lunch`) that pauses routing, `Proficiencies` in the configuration. A `HEART_BEAT`
    /// without `PreviousAgentSnapshot`, which the data model makes optional.
    static let availableWithNextStatus = #"""
        {"AWSAccountId":"012345678901",
         "AgentARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent/agent-ARN",
         "CurrentAgentSnapshot":{
           "AgentStatus":{"ARN":"example-ARN","Name":"Available","StartTimestamp":"2019-08-13T20:52:30.704Z"},
           "NextAgentStatus":{"Name":"Lunch","ARN":"example-ARN2","EnqueuedTimestamp":"2019-08-13T20:58:00.004Z"},
           "Configuration":{"AgentHierarchyGroups":null,"FirstName":"AgentEventStreamTest","LastName":"Agent",
             "Proficiencies":[{"Level":3.0,"Name":"Technology","Value":"Kinesis"},{"Level":1.0,"Name":"Location","Value":"WA"}],
             "RoutingProfile":{"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/routing-profile/routing-profile-ARN",
               "Concurrency":[{"AvailableSlots":3,"Channel":"CHAT","MaximumSlots":3},{"AvailableSlots":1,"Channel":"VOICE","MaximumSlots":1}],
               "DefaultOutboundQueue":{"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/queue/queue-ARN",
                 "Channels":["VOICE"],"Name":"OutboundQueue"},
               "InboundQueues":[
                 {"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/queue/queue-ARN","Channels":["CHAT","VOICE"],"Name":"Omni-channel-queue"}],
               "Name":"AgentEventStreamProfile"},
             "Username":"aestest"},
           "Contacts":[]},
         "EventId":"EventId-2","EventTimestamp":"2019-08-13T20:58:44.031Z","EventType":"HEART_BEAT",
         "InstanceARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111",
         "Version":"2017-10-01"}
        """#

    /// A `LOGIN` ("Agent event streams data model": `PreviousAgentSnapshot` does not apply to
    /// `LOGIN` or `LOGOUT`, so it is absent).
    static let login = #"""
        {"AWSAccountId":"012345678901",
         "AgentARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent/agent-ARN",
         "CurrentAgentSnapshot":{
           "AgentStatus":{"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent-state/agent-state-ARN",
             "Name":"Offline","StartTimestamp":"2019-08-13T20:52:30.704Z"},
           "Configuration":\#(configuration),
           "Contacts":[]},
         "EventId":"EventId-3","EventTimestamp":"2019-08-13T21:00:02.115Z","EventType":"LOGIN",
         "InstanceARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111",
         "Version":"2017-10-01"}
        """#

    /// A `LOGOUT`, with the `PreviousAgentSnapshot` member present but `null`.
    static let logout = #"""
        {"AWSAccountId":"012345678901",
         "AgentARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent/agent-ARN",
         "CurrentAgentSnapshot":{
           "AgentStatus":{"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent-state/agent-state-ARN",
             "Name":"Offline","StartTimestamp":"2019-08-13T22:30:00.000Z"},
           "Configuration":\#(configuration),
           "Contacts":[]},
         "EventId":"EventId-4","EventTimestamp":"2019-08-13T22:30:00.412Z","EventType":"LOGOUT",
         "InstanceARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111",
         "PreviousAgentSnapshot":null,
         "Version":"2017-10-01"}
        """#

    /// A `STATE_CHANGE` from `Available` to a custom status ("they changed it from Available to
    /// on Break", data model page), the status given by `ARN` and `Name`.
    static let customStatus = #"""
        {"AWSAccountId":"012345678901",
         "AgentARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent/agent-ARN",
         "CurrentAgentSnapshot":{
           "AgentStatus":{"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent-state/break-ARN",
             "Name":"Break","StartTimestamp":"2019-08-13T21:15:00.250Z"},
           "Configuration":\#(configuration),
           "Contacts":[]},
         "EventId":"EventId-5","EventTimestamp":"2019-08-13T21:15:00.311Z","EventType":"STATE_CHANGE",
         "InstanceARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111",
         "PreviousAgentSnapshot":{
           "AgentStatus":{"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent-state/available-ARN",
             "Name":"Available","StartTimestamp":"2019-08-13T21:00:05.000Z"},
           "Configuration":\#(configuration),
           "Contacts":[]},
         "Version":"2017-10-01"}
        """#

    /// A `STATE_CHANGE` while on contacts, every member of the data model's `Contact` object
    /// filled: a voice call just `CONNECTED` and a chat `ENDED` (in after-contact work). The
    /// configuration has `AgentHierarchyGroups` with three of five levels (`HierarchyGroup`
    /// objects `{ARN, Name}`).
    static let onContacts = #"""
        {"AWSAccountId":"012345678901",
         "AgentARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent/agent-ARN",
         "CurrentAgentSnapshot":{
           "AgentStatus":{"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent-state/available-ARN",
             "Name":"Available","StartTimestamp":"2019-08-13T21:00:05.000Z"},
           "Configuration":{
             "AgentHierarchyGroups":{
               "Level1":{"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent-group/level1-ARN","Name":"North America"},
               "Level2":{"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent-group/level2-ARN","Name":"Seattle"},
               "Level3":{"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent-group/level3-ARN","Name":"Team A"},
               "Level4":null,"Level5":null},
             "FirstName":"AgentEventStreamTest","LastName":"Agent",
             "RoutingProfile":{"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/routing-profile/routing-profile-ARN",
               "DefaultOutboundQueue":{"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/queue/queue-ARN","Name":"OutboundQueue"},
               "InboundQueues":[{"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/queue/queue-ARN","Name":"Omni-channel-queue"}],
               "Name":"AgentEventStreamProfile"},
             "Username":"aestest"},
           "Contacts":[
             {"ContactId":"33333333-3333-3333-3333-333333333333","InitialContactId":null,"Channel":"VOICE",
              "InitiationMethod":"INBOUND","State":"CONNECTED","StateStartTimestamp":"2019-08-13T21:20:11.503Z",
              "ConnectedToAgentTimestamp":"2019-08-13T21:20:11.503Z","QueueTimestamp":"2019-08-13T21:19:40.000Z",
              "Queue":{"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/queue/queue-ARN","Name":"Omni-channel-queue"}},
             {"ContactId":"44444444-4444-4444-4444-444444444444","InitialContactId":"22222222-2222-2222-2222-222222222222",
              "Channel":"CHAT","InitiationMethod":"TRANSFER","State":"ENDED","StateStartTimestamp":"2019-08-13T21:18:02.000Z",
              "ConnectedToAgentTimestamp":"2019-08-13T21:10:30.000Z","QueueTimestamp":"2019-08-13T21:10:02.000Z",
              "Queue":{"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/queue/queue-ARN","Name":"Omni-channel-queue"}}]},
         "EventId":"EventId-6","EventTimestamp":"2019-08-13T21:20:11.602Z","EventType":"STATE_CHANGE",
         "InstanceARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111",
         "PreviousAgentSnapshot":{
           "AgentStatus":{"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/agent-state/available-ARN",
             "Name":"Available","StartTimestamp":"2019-08-13T21:00:05.000Z"},
           "Configuration":null,
           "Contacts":[
             {"ContactId":"33333333-3333-3333-3333-333333333333","InitialContactId":null,"Channel":"VOICE",
              "InitiationMethod":"INBOUND","State":"CONNECTING","StateStartTimestamp":"2019-08-13T21:20:05.000Z",
              "QueueTimestamp":"2019-08-13T21:19:40.000Z",
              "Queue":{"ARN":"arn:aws:connect:us-west-2:012345678901:instance/aaaaaaaa-bbbb-cccc-dddd-111111111111/queue/queue-ARN","Name":"Omni-channel-queue"}}]},
         "Version":"2017-10-01"}
        """#

    /// Every sample, named, for the "decodes every published shape" test.
    static let all: [(name: String, json: String)] = [
        ("heartBeatOffline", heartBeatOffline), ("availableWithNextStatus", availableWithNextStatus), ("login", login),
        ("logout", logout), ("customStatus", customStatus), ("onContacts", onContacts),
    ]
}
