/// One job the harness tried to enqueue, and how that went.
final class SoakJob {
    enum Role {
        case good(GoodJob)
        case hostile(HostileCase)
    }

    enum Enqueued {
        case pending
        case accepted(id: Int)
        case refused(status: Int32, message: String)
        case hung
    }

    let label: String
    let role: Role
    let file: String
    var enqueued = Enqueued.pending

    init(label: String, role: Role, file: String) {
        self.label = label
        self.role = role
        self.file = file
    }

    var id: Int? {
        if case .accepted(let id) = enqueued { return id }
        return nil
    }
}

extension SoakJob {
    var isGood: Bool {
        if case .good = role { return true }
        return false
    }
}
