import Foundation

/// Services by type: the model cannot import the modules that provide them (media decoding), so
/// the caller hands them in and layer kinds look them up.
public struct DecodeServices: @unchecked Sendable {
    // Values are registered as their own declared type, so the casts below cannot fail; the
    // table is immutable once built, hence safe to share.
    private var table: [ObjectIdentifier: Any] = [:]

    public init() {}

    public mutating func register<Service>(_ service: Service, as type: Service.Type) {
        table[ObjectIdentifier(type)] = service
    }

    public func service<Service>(_ type: Service.Type) -> Service? {
        table[ObjectIdentifier(type)] as? Service
    }
}
