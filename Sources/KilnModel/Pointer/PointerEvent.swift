/// One thing a recorded pointer did, in the job's layout pixels at a moment of the timeline.
public struct PointerEvent: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// The pointer passed here.
        case move
        /// A mouse click here: a ring, and the cursor pressed for a moment.
        case click
        /// A finger touched here: a ripple and a ring.
        case tap
        /// A point of a drag: the button is held from the first point of a run of drags to its last.
        case drag
        /// A key pressed: a badge with `key`; its position, when given, is where the pointer is.
        case key
    }

    public var time: Double
    /// nil only for a key event written without a position: it leaves the path alone.
    public var position: SIMD2<Double>?
    public var kind: Kind
    /// The text of a key event's badge ("⌘K"); nil for other kinds.
    public var key: String?

    public init(time: Double, position: SIMD2<Double>?, kind: Kind, key: String? = nil) {
        self.time = time
        self.position = position
        self.kind = kind
        self.key = key
    }

    /// Clicks, taps and the first point of each drag: the moments something is pressed.
    public var isPress: Bool { kind == .click || kind == .tap }
}

/// A pointer event log, in time order.
public struct PointerEventLog: Sendable, Equatable {
    public var events: [PointerEvent]

    public init(events: [PointerEvent]) {
        self.events = events
    }

    /// The events that place the pointer (every kind but a key without a position).
    public var placed: [PointerEvent] { events.filter { $0.position != nil } }

    /// The times a press begins: clicks, taps and the first point of every run of drags.
    public var presses: [PointerEvent] {
        var result: [PointerEvent] = []
        var previous: PointerEvent.Kind?
        for event in events where event.position != nil {
            if event.isPress || (event.kind == .drag && previous != .drag) { result.append(event) }
            previous = event.kind
        }
        return result
    }

    /// The intervals a drag holds the button: from the first to the last point of each run.
    public var drags: [ClosedRange<Double>] {
        var result: [ClosedRange<Double>] = []
        var start: Double?, last = 0.0
        for event in events where event.position != nil {
            if event.kind == .drag {
                if start == nil { start = event.time }
                last = event.time
            } else if let s = start {
                result.append(s...last)
                start = nil
            }
        }
        if let s = start { result.append(s...last) }
        return result
    }
}
