import Primitives

/// `AgentHierarchyGroups {Level1 … Level5}`: the agent's place in the instance's agent
/// hierarchy, up to five levels (for example region › area › store › team).
///
/// Both wire formats carry it: agent events as `Configuration.AgentHierarchyGroups` with levels
/// `{ARN, Name}`, contact records as `Agent.HierarchyGroups` with levels `{ARN, GroupName}`
/// (agent event streams data model; contact records data model). Levels the instance does not
/// use are absent or `null`.
public struct AgentHierarchyGroups: Sendable, Hashable, Codable {
    /// `Level1`: the top of the hierarchy.
    public var level1: ResourceReference?
    /// `Level2`.
    public var level2: ResourceReference?
    /// `Level3`.
    public var level3: ResourceReference?
    /// `Level4`.
    public var level4: ResourceReference?
    /// `Level5`: the bottom of the hierarchy.
    public var level5: ResourceReference?

    /// Creates a hierarchy; levels not given are absent.
    public init(
        level1: ResourceReference? = nil, level2: ResourceReference? = nil, level3: ResourceReference? = nil,
        level4: ResourceReference? = nil, level5: ResourceReference? = nil
    ) {
        self.level1 = level1
        self.level2 = level2
        self.level3 = level3
        self.level4 = level4
        self.level5 = level5
    }

    /// The five levels in order, level 1 first; `nil` where a level is absent.
    public var levels: [ResourceReference?] { [level1, level2, level3, level4, level5] }

    /// Reads `{Level1 … Level5}`, each level `{ARN, <nameKey>}`.
    ///
    /// - Parameter nameKey: `Name` in agent events, `GroupName` in contact records.
    init(reader: JSONObjectReader, nameKey: StaticString) throws {
        func level(_ key: StaticString) throws -> ResourceReference? {
            try reader.object(key).map { level in
                ResourceReference(arn: try level.string("ARN"), name: try level.string(nameKey))
            }
        }
        self.init(
            level1: try level("Level1"), level2: try level("Level2"), level3: try level("Level3"),
            level4: try level("Level4"), level5: try level("Level5"))
    }
}
