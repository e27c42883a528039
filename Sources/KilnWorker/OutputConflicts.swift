import KilnQueue

/// Jobs that would write the same file: two of them in one submission (a batch whose rows
/// expand to one path), or one being submitted and one already waiting or running. Whichever
/// finished last would silently replace the other's video.
public enum OutputConflicts {
    /// One message per conflicting output, naming the jobs involved. `active` is the queue's
    /// jobs; only those still to run or running count. A request whose idempotency key matches
    /// an active job is that job again, not a conflict.
    public static func messages(for requests: [EnqueueRequest], active: [QueuedJob]) -> [String] {
        var messages: [String] = []
        var positions: [String: [Int]] = [:]
        var outputs: [String] = []
        for (index, request) in requests.enumerated() {
            if positions[request.output] == nil { outputs.append(request.output) }
            positions[request.output, default: []].append(index)
        }
        for output in outputs {
            guard let indices = positions[output], indices.count > 1 else { continue }
            let which = indices.map { "#\($0 + 1) (\(requests[$0].jobFile))" }.joined(separator: ", ")
            messages.append(
                "\(indices.count) of the jobs being enqueued write \(output): \(which); give each its own "
                    + "output path (e.g. {name} from a batch column in output.path)")
        }
        let keys = Set(requests.compactMap(\.idempotencyKey))
        let wanted = Set(requests.map(\.output))
        for job in active.sorted(by: { $0.id < $1.id })
        where !job.state.isTerminal && !job.isSegment && wanted.contains(job.output)
            && !(job.idempotencyKey.map(keys.contains) ?? false)
        {
            messages.append("job \(job.id) (\(job.state.rawValue)) already writes \(job.output)")
        }
        return messages
    }
}
