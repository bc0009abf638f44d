import Server
import Services

/// The hook and MCP read the flows serving now from the store that reloads them.
extension FlowStore: FlowProvider {}
