/// Decodes the `"time"` key of an animation object: `"global"`, `"layer"` or
/// `{"since": [seconds, …]}`.
enum TimeSourceDecoding {
    static let names = ["global", "layer"]
    /// Far more than a video needs; the cap keeps a generated job from growing without bound.
    static let maximumTriggerCount = 10_000
    static let forms = #""global", "layer" or {"since": [seconds, …]}"#

    /// A `"layer"` source counts from `context.layerStart`; `{"since": …}` is checked against
    /// `context.timelineDuration` when it is known.
    static func decode(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> TimeSource? {
        switch node.value {
        case .string(let name):
            switch name {
            case "global": return .global
            case "layer": return .offset(start: context.layerStart)
            default:
                context.error(
                    "unknown time source '\(name)'\(Suggestion.hint(for: name, among: names)); expected \(forms)",
                    at: node, path: path)
                return nil
            }
        case .object(let members):
            let before = context.diagnostics.count
            ObjectKeys.check(members, path: path, allowed: ["since"], context: context)
            guard let sinceNode = node["since"] else {
                if context.diagnostics.count == before {
                    context.error(#"expected {"since": [seconds, …]}"#, at: node, path: path)
                }
                return nil
            }
            let triggers = decodeTriggers(sinceNode, path: path.key("since"), context: context)
            return context.diagnostics.count == before ? triggers.map(TimeSource.triggers) : nil
        default:
            context.error(
                "expected a time source (\(forms)), got \(node.value.typeName)", at: node, path: path)
            return nil
        }
    }

    /// Seconds, strictly increasing, ≥ 0 and within the timeline when its duration is known; shared
    /// by `{"since": …}` and the symbol effects' `"at"`.
    static func decodeTriggers(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> [Double]? {
        guard let elements = node.elements else {
            context.error(
                "expected an array of trigger times in seconds, got \(node.value.typeName)", at: node,
                path: path)
            return nil
        }
        guard !elements.isEmpty else {
            context.error("expected at least one trigger time", at: node, path: path)
            return nil
        }
        guard elements.count <= maximumTriggerCount else {
            context.error(
                "\(elements.count) trigger times; at most \(maximumTriggerCount) are allowed", at: node,
                path: path)
            return nil
        }
        let before = context.diagnostics.count
        var triggers: [Double] = []
        var previous: Double?
        for (index, element) in elements.enumerated() {
            let triggerPath = path.index(index)
            guard let time = element.number else {
                context.error(
                    "expected a trigger time in seconds, got \(element.value.typeName)", at: element,
                    path: triggerPath)
                continue
            }
            defer { previous = max(previous ?? time, time) }
            if time < 0 {
                context.error(
                    "trigger time must be ≥ 0, got \(NumberText.format(time))", at: element, path: triggerPath
                )
            } else if let previous, time <= previous {
                context.error(
                    "trigger time \(NumberText.format(time)) is not after the previous trigger time "
                        + "\(NumberText.format(previous)); trigger times must be strictly increasing",
                    at: element, path: triggerPath)
            } else if let duration = context.timelineDuration, time > duration {
                context.error(
                    "trigger time \(NumberText.format(time)) is after the end of the timeline "
                        + "(\(NumberText.format(duration)) s, the output's duration)",
                    at: element, path: triggerPath)
            } else {
                triggers.append(time)
            }
        }
        return context.diagnostics.count == before ? triggers : nil
    }
}
