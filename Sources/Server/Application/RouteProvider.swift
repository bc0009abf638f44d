import Hummingbird

/// A feature that adds its routes to the server (the hook, the console streams...).
///
/// The executable decides which features a process serves by listing providers in
/// ``ServerDependencies/routeProviders``.
public protocol RouteProvider: Sendable {
    /// Adds the feature's routes (and route-group middleware) to `router`.
    func addRoutes(to router: Router<SwitchboardRequestContext>)
}
