/// Auto-zoom: camera keyframes that push in on where the pointer acts and pull out between
/// actions (Screen Studio's auto-zoom), planned from an event log. The result is ordinary
/// `position` and `zoom` keyframes, to be edited like any others.
///
/// Actions (clicks, taps, drags, keys with a position) close in time are grouped while their
/// box still fits the frame at `joinZoom` × `maxZoom` or more; each group gets a view: the box's centre,
/// magnified as far as keeps every event of the group (moves between its actions included)
/// `margin` screen pixels inside the frame, at most `maxZoom`, and never showing beyond the
/// layout. The view is reached `lead` seconds before the group's first action and held at least
/// `minHold` seconds, until `linger` after its last. Between groups the camera pulls out to the
/// whole layout when there is time to hold that at least `minHold`; otherwise it pans from one
/// view to the next between their actions. Every move takes `transition` seconds (less where the
/// actions leave less) along `ease`. Events nearer the layout's edge than the margin cannot be
/// given it; they are shown as near it as the layout allows.
public enum ZoomPlan {
    public struct Settings: Sendable {
        public var size: SIMD2<Double>
        public var maxZoom = 2.0
        public var minHold = 1.2
        public var margin = 80.0
        public var lead = 0.35
        public var linger = 0.6
        public var transition = 0.8
        public var ease = Easing.easeInOut
        /// A group whose box would be seen at less than this stays at the whole layout.
        public var minimumZoom = 1.15
        /// Actions share a view while it magnifies at least this share of `maxZoom`.
        public var joinZoom = 0.8

        public init(size: SIMD2<Double>) {
            self.size = size
        }

        public static let maxZoomRange = 1.0...10
        public static let secondsRange = 0.0...60
        public static let marginRange = 0.0...4096
    }

    public struct View: Sendable, Equatable {
        public var center: SIMD2<Double>
        public var zoom: Double
    }

    public struct Keyframe: Sendable, Equatable {
        public var time: Double
        public var view: View
        public var ease: Easing
    }

    /// A run of actions shown by one view, from its first action to its last.
    struct Group {
        var start: Double
        var end: Double
        var low: SIMD2<Double>
        var high: SIMD2<Double>
    }

    public static func keyframes(for log: PointerEventLog, settings: Settings) -> [Keyframe] {
        let overview = View(center: settings.size / 2, zoom: 1)
        let groups = self.groups(log, settings: settings)
        let views = groups.map { view(of: $0, settings: settings) ?? overview }
        var frames: [Keyframe] = []
        func add(_ time: Double, _ view: View) {
            frames.append(Keyframe(time: max(time, 0), view: view, ease: settings.ease))
        }
        let t = settings.transition
        func previousArrival(_ k: Int) -> Double {
            // Where group k's view was reached: its keyframe at or before its first action.
            frames.last { $0.view == views[k] && $0.time <= groups[k].start }?.time ?? groups[k].start
        }
        for (k, group) in groups.enumerated() {
            let arrive = group.start - settings.lead
            if k == 0 {
                let move = min(t, group.start * 0.8)
                if move < 0.1 {
                    add(0, views[0])
                } else {
                    let arrival = max(arrive, move)
                    if arrival - move > 0 { add(0, overview) }
                    add(arrival - move, overview)
                    add(arrival, views[0])
                }
                continue
            }
            let previous = groups[k - 1]
            let leave = max(previous.end + settings.linger, previousArrival(k - 1) + settings.minHold)
            if arrive - t - (leave + t) >= settings.minHold {
                add(leave, views[k - 1])
                add(leave + t, overview)
                add(arrive - t, overview)
                add(arrive, views[k])
            } else {
                // A pan between the two groups' actions, centred between when the first would
                // leave and the second arrive.
                let window = group.start - previous.end
                let move = min(t, window * 0.8)
                let desired = (leave + arrive) / 2 - move / 2
                let start = min(max(desired, previous.end), group.start - move)
                add(start, views[k - 1])
                add(start + move, views[k])
            }
        }
        if let last = groups.last, let view = views.last {
            let leave = max(last.end + settings.linger, previousArrival(groups.count - 1) + settings.minHold)
            add(leave, view)
            add(leave + t, overview)
        }
        if frames.isEmpty { add(0, overview) }

        return rounded(frames, size: settings.size)
    }

    /// Times to milliseconds, positions to hundredths and zooms down to ten-thousandths (down
    /// shows a little more, never less); keyframes that no longer advance are dropped.
    static func rounded(_ frames: [Keyframe], size: SIMD2<Double>) -> [Keyframe] {
        var result: [Keyframe] = []
        for frame in frames {
            var f = frame
            f.time = (f.time * 1000).rounded() / 1000
            f.view.zoom = max(1, (f.view.zoom * 10_000).rounded(.down) / 10_000)
            // The centre is kept where the rounded zoom's view stays on the layout.
            let half = size / (2 * f.view.zoom)
            for axis in 0..<2 {
                let low = (half[axis] * 100).rounded(.up) / 100
                let high = ((size[axis] - half[axis]) * 100).rounded(.down) / 100
                let c = (f.view.center[axis] * 100).rounded() / 100
                f.view.center[axis] = low > high ? size[axis] / 2 : min(max(c, low), high)
            }
            if let last = result.last, f.time <= last.time {
                if f.view == last.view { continue }
                // Only a hold ending as a move starts lands here: the move wins.
                result.removeLast()
                if let before = result.last, f.time <= before.time { continue }
            }
            result.append(f)
        }
        return result
    }

    static func groups(_ log: PointerEventLog, settings: Settings) -> [Group] {
        let placed = log.placed
        let actions = placed.filter { $0.kind != .move }
        var groups: [Group] = []
        let joinGap = settings.minHold + 2 * settings.transition + settings.lead + settings.linger
        for action in actions {
            guard let p = action.position else { continue }
            if var group = groups.last, action.time - group.end <= joinGap {
                // The group's box grows by the action and the moves on the way to it.
                var low = pointwiseMin(group.low, p), high = pointwiseMax(group.high, p)
                for event in placed where event.time > group.end && event.time < action.time {
                    if let q = event.position {
                        low = pointwiseMin(low, q)
                        high = pointwiseMax(high, q)
                    }
                }
                let grown = Group(start: group.start, end: action.time, low: low, high: high)
                // Joined only while the view stays close: far-apart actions get views of their own.
                let joined = max(settings.minimumZoom, settings.joinZoom * settings.maxZoom)
                if zoom(of: grown, settings: settings) >= joined || action.time == group.end {
                    group = grown
                    groups[groups.count - 1] = group
                    continue
                }
            }
            groups.append(Group(start: action.time, end: action.time, low: p, high: p))
        }
        return groups
    }

    /// The largest zoom that keeps the group's box `margin` screen pixels inside the frame.
    static func zoom(of group: Group, settings: Settings) -> Double {
        let extent = group.high - group.low
        let room = settings.size - 2 * settings.margin
        var zoom = settings.maxZoom
        for axis in 0..<2 where extent[axis] > 0 {
            zoom = min(zoom, room[axis] / extent[axis])
        }
        return max(zoom, 0)
    }

    static func view(of group: Group, settings: Settings) -> View? {
        let zoom = min(zoom(of: group, settings: settings), settings.maxZoom)
        guard zoom >= settings.minimumZoom else { return nil }
        // Centred on the box, moved back inside the layout where the view would show beyond it.
        let half = settings.size / (2 * zoom)
        var center = (group.low + group.high) / 2
        for axis in 0..<2 {
            center[axis] = min(max(center[axis], half[axis]), settings.size[axis] - half[axis])
        }
        return View(center: center, zoom: zoom)
    }

    /// The job's `camera` object holding the plan: `position` and `zoom` keyframes, one a line,
    /// every line after the first indented by `indent`.
    public static func cameraJSON(_ frames: [Keyframe], indent: String = "") -> String {
        func keyframes(_ value: (Keyframe) -> String) -> String {
            frames.enumerated().map { index, frame in
                let ease = index == 0 ? "" : ", \"ease\": \"\(frame.ease)\""
                return "\(indent)    {\"t\": \(NumberText.format(frame.time)), \"v\": \(value(frame))\(ease)}"
            }.joined(separator: ",\n")
        }
        let position = keyframes {
            "[\(NumberText.format($0.view.center.x)), \(NumberText.format($0.view.center.y))]"
        }
        let zoom = keyframes { NumberText.format($0.view.zoom) }
        return "{\n\(indent)  \"position\": {\"keyframes\": [\n\(position)\n\(indent)  ]},\n"
            + "\(indent)  \"zoom\": {\"keyframes\": [\n\(zoom)\n\(indent)  ]}\n\(indent)}"
    }
}
