import Foundation

/// Who is claiming: a worker name, its host and process (pid + start time, so a recycled pid is
/// not mistaken for a live owner).
public struct WorkerIdentity: Sendable, Equatable {
    public var name: String
    public var host: String
    public var pid: Int32
    public var processStart: UInt64

    public init(name: String, host: String, pid: Int32, processStart: UInt64) {
        self.name = name
        self.host = host
        self.pid = pid
        self.processStart = processStart
    }

    /// This process.
    public static func current(name: String? = nil) -> WorkerIdentity {
        let pid = getpid()
        let host = ProcessInfo.processInfo.hostName
        return WorkerIdentity(
            name: name ?? "\(host):\(pid)", host: host, pid: pid,
            processStart: ProcessTable.startTime(of: pid) ?? 0)
    }
}
