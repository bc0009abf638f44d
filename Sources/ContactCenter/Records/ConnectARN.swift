/// The parts of an Amazon Connect ARN that the encoders need to fill realistic envelope fields
/// (`AWSAccountId`, `InstanceARN`, `region`).
///
/// Format: `arn:aws:connect:<region>:<account>:instance/<instance-id>[/<kind>/<id>]`.
struct ConnectARN {
    var region: String
    var account: String
    var instanceId: String

    init?(_ arn: String?) {
        guard let arn else { return nil }
        let parts = arn.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "arn", parts[2] == "connect" else { return nil }
        let resource = parts[5].split(separator: "/")
        guard resource.count >= 2, resource[0] == "instance" else { return nil }
        region = String(parts[3])
        account = String(parts[4])
        instanceId = String(resource[1])
    }

    /// `arn:aws:connect:<region>:<account>:instance/<instance-id>`.
    var instanceARN: String { "arn:aws:connect:\(region):\(account):instance/\(instanceId)" }

    /// The first parseable ARN of `candidates`, or a placeholder instance in `ap-northeast-1`.
    static func first(of candidates: [String?]) -> ConnectARN {
        for candidate in candidates {
            if let arn = ConnectARN(candidate) { return arn }
        }
        return ConnectARN(
            "arn:aws:connect:ap-northeast-1:000000000000:instance/00000000-0000-0000-0000-000000000000")!
    }
}
