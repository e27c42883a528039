/// Decodes `"duration"`: seconds as a number, `{"seconds": S}` or `{"frames": N}`.
enum DurationDecoding {
    enum Written {
        case seconds(Double)
        case frames(Int)
    }

    static func decode(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> Written? {
        switch node.value {
        case .number:
            return seconds(node, path: path, context: context).map(Written.seconds)
        case .object(let members):
            ObjectKeys.check(members, path: path, allowed: ["seconds", "frames"], context: context)
            switch (node["seconds"], node["frames"]) {
            case (let secondsNode?, nil):
                return seconds(secondsNode, path: path.key("seconds"), context: context).map(Written.seconds)
            case (nil, let framesNode?):
                return ValueDecoding.decodeInteger(
                    framesNode, path: path.key("frames"), range: 1...OutputSettings.maximumFrameCount,
                    context: context
                ).map(Written.frames)
            case (.some, .some):
                context.error("give either 'seconds' or 'frames', not both", at: node, path: path)
            case (nil, nil):
                if members.isEmpty {
                    context.error("expected {\"seconds\": S} or {\"frames\": N}", at: node, path: path)
                }
            }
            return nil
        default:
            context.error(
                "expected a duration (seconds, {\"seconds\": S} or {\"frames\": N}), got \(node.value.typeName)",
                at: node, path: path)
            return nil
        }
    }

    /// Seconds (a number or `{"seconds": S}`) or `{"frames": N}`; the frame count that seconds
    /// make at the job's rate is checked on the value.
    static let schema: JSONSchema = {
        let seconds = ValueSchema.number(
            NumberBounds(0...Double(OutputSettings.maximumDurationSeconds), excludesLower: true))
        let frames = ValueSchema.integer(1...OutputSettings.maximumFrameCount)
        return .anyOf([
            seconds,
            JSONSchema.object([("seconds", seconds), ("frames", frames)])
                .with("oneOf", [.requiring(["seconds"]), .requiring(["frames"])]),
        ])
    }()

    /// Converts to a frame count, checking the limits that only make sense once the rate is known.
    static func frameCount(
        _ written: Written, rate: Rational, node: JSONNode, path: JSONPath, context: DecodeContext
    ) -> Int? {
        let frames: Int
        switch written {
        case .seconds(let seconds):
            frames = max(1, Int((seconds * Double(rate.numerator) / Double(rate.denominator)).rounded()))
        case .frames(let count):
            frames = count
        }
        guard frames <= OutputSettings.maximumFrameCount else {
            context.error(
                "\(frames) frames is too many (at most \(OutputSettings.maximumFrameCount))", at: node,
                path: path)
            return nil
        }
        let seconds = Double(frames) * Double(rate.denominator) / Double(rate.numerator)
        guard seconds <= Double(OutputSettings.maximumDurationSeconds) else {
            context.error(
                "\(frames) frames at \(rate) fps last \(NumberText.format(seconds.rounded())) s, "
                    + "longer than the 24-hour limit", at: node, path: path)
            return nil
        }
        return frames
    }

    private static func seconds(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> Double? {
        guard let seconds = ValueDecoding.constantNumber(node, path: path, range: nil, context: context)
        else {
            return nil
        }
        guard seconds > 0 else {
            context.error(
                "duration must be > 0 seconds, got \(NumberText.format(seconds))", at: node, path: path)
            return nil
        }
        guard seconds <= Double(OutputSettings.maximumDurationSeconds) else {
            context.error(
                "duration \(NumberText.format(seconds)) s is longer than the 24-hour limit "
                    + "(\(OutputSettings.maximumDurationSeconds) s)", at: node, path: path)
            return nil
        }
        return seconds
    }
}
