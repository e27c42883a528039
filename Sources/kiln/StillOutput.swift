import Foundation
import KilnCommandLine
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster

/// What `sheet` and `sweep` share: a grid picture written by -o's extension, cells sized by
/// --width, laid out in --columns.
enum StillOutput {
    static let output = OptionSpec(
        "--output", short: "o", kind: .path,
        help: "the picture: .png, .jpg, .jpeg or .webp, in any case (default: a PNG beside the job's "
            + "output, NAME.sheet.png or NAME.sweep.png)")
    static let columns = OptionSpec(
        "--columns", kind: .int(1...64), placeholder: "C",
        help: "cells per row (default: fitted to the cells)")
    static let width = OptionSpec(
        "--width", kind: .int(16...7680), placeholder: "W",
        help: "each cell's width in pixels (default: 480, or the job's width if smaller; at most the job's)")

    /// The job of `preview` or `sheet`, loaded by the export session with the `--set`
    /// variables, the `--limit`s under the memory guard, and `rules`.
    static func job(_ args: ParsedArguments, rules: PathRules) throws -> Result<Job, JobLoadError> {
        let options = JobLoadOptions(
            variables: try variableSettings(args), limits: try guardedLimitSettings(args), pathRules: rules)
        do {
            return .success(try ExportSession.loadForStills(file: args.positionals[0], options: options))
        } catch {
            return .failure(error)
        }
    }

    /// -o's file and its format (nil without -o), or a usage error.
    static func target(_ args: ParsedArguments) throws -> (url: URL, format: ImageFormat)? {
        guard let path = args.string(output) else { return nil }
        // Its folder resolved, its name not: a link at the name is refused, never followed.
        let url = OutputLocation(path).url
        guard let format = ImageFormat(fileExtension: url.pathExtension) else {
            throw args.usageError(
                "cannot tell the image format of -o \(path): its extension must be "
                    + "\(ImageFormat.writableExtensionList) (any case)")
        }
        return (url, format)
    }

    /// Where a still goes without -o: a PNG beside the job's output, named after it and what
    /// the still shows (out/showcase.mp4 → out/showcase.frame-90.png, out/showcase.sheet.png),
    /// so stills never replace the video or each other. A PNG sequence's folder gets them beside
    /// it.
    static func besideOutput(of job: Job, showing what: String) -> URL {
        let path = job.output.path.standardizedFileURL
        let base = path.deletingPathExtension().lastPathComponent
        return path.deletingLastPathComponent().appendingPathComponent("\(base).\(what).png")
    }

    /// A grid for `count` cells of `job`'s frames, or a usage error when it would be too large.
    static func grid(
        _ args: ParsedArguments, job: Job, cells count: Int, columns defaultColumns: Int, title: String
    )
        throws -> FrameGrid
    {
        let requested = args.int(width) ?? min(480, job.output.width)
        guard requested <= job.output.width else {
            throw args.usageError(
                "--width \(requested) is wider than the job's frames (\(job.output.width)); cells show "
                    + "frames at most at their own size")
        }
        let cellHeight = max(
            1, Int((Double(requested * job.output.height) / Double(job.output.width)).rounded()))
        let grid = FrameGrid(
            title: title, columns: args.int(columns) ?? defaultColumns, cellWidth: requested,
            cellHeight: cellHeight)
        let size = grid.size(cells: count)
        guard size.width <= FrameGrid.maximumSide, size.height <= FrameGrid.maximumSide else {
            throw args.usageError(
                "the picture would be \(size.width)x\(size.height) pixels; at most \(FrameGrid.maximumSide) a side "
                    + "(fewer cells, a smaller --width or other --columns)")
        }
        return grid
    }

    /// Writes the picture (creating missing folders, as `render` does); the exit status.
    static func write(
        _ image: () throws(ExportError) -> RGBA8Frame, with session: ExportSession, as format: ImageFormat
    ) -> Int32 {
        let url = session.destination
        do {
            try session.createOutputDirectory { Output.stderr("kiln: \($0)") }
            try StillImageFile.write(try image(), as: format, to: url)
            Output.stderr("kiln: wrote \(url.path)")
            return ExitCode.ok
        } catch {
            Output.error(error.description)
            return error.exitCode
        }
    }

    /// `12.5 s`, `3 s`.
    static func seconds(_ value: Double) -> String {
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + " s"
    }
}
