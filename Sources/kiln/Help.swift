enum Help {
    static let top = """
        kiln — bake declarative effect timelines (JSON job files) into MP4 videos

        usage: kiln <command> [options]

        commands:
          render JOB [-o OUT.mp4] [--threads N] [--progress auto|bar|json|none]
                                  render a job to an H.264 MP4 (BT.709, yuv420p)
          preview JOB (--at SECONDS | --frame N) -o OUT.png [--threads N]
                                  render one frame to a PNG
          validate JOB... [--json]
                                  check job files and report every problem
          layers                  list layer kinds, transform keys and effects with their parameters
          --version               print the version and the FFmpeg libraries in use
          help COMMAND            help for one command (or: kiln COMMAND --help)

        exit codes: 0 ok, 64 usage, 65 invalid job, 66 missing input, 70 internal error,
                    73 cannot create output, 130 interrupted (SIGINT), 143 terminated (SIGTERM)
        """

    static let render = """
        usage: kiln render JOB [-o OUT.mp4] [--threads N] [--progress auto|bar|json|none]

        Renders every frame of JOB and encodes it with libx264 into an MP4 (yuv420p, BT.709,
        limited range, +faststart). With the job's `audio`, the file also gets an AAC track
        (48 kHz stereo) exactly as long as the video. The file appears at its final path only
        when complete.

          -o, --output PATH   output file (default: the job's output.path)
          --threads N         render threads (default: all cores); output is identical for any N
          --progress MODE     auto (a bar on a terminal, silent otherwise), bar, json (one JSON
                              object per frame on stdout) or none
        """

    static let preview = """
        usage: kiln preview JOB (--at SECONDS | --frame N) -o OUT.png [--threads N]

        Renders one frame to a PNG: the same pixels the video gets before YUV conversion.

          --at SECONDS   the frame shown at this time (the last frame starting at or before it)
          --frame N      frame index, 0-based
          -o PATH        output PNG
          --threads N    render threads (default: all cores)
        """

    static let validate = """
        usage: kiln validate JOB... [--json]

        Checks job files and reports every problem at once, each with the file, line:column and
        the JSON path. Exit 0 when all are valid, 65 when one is invalid, 66 when one is missing.

          --json   print one JSON array with {file, valid, errors: [{path, line, column, message}]}
        """

    static let layers = """
        usage: kiln layers

        Lists every layer kind, the transform keys every layer takes, and every effect, each
        parameter with its type, range, default and a line of help.
        """

    static func command(_ name: String) -> String? {
        switch name {
        case "render": return render
        case "preview": return preview
        case "validate": return validate
        case "layers": return layers
        default: return nil
        }
    }
}
