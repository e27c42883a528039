/// sysexits(3) codes Kiln exits with.
enum ExitCode {
    static let ok: Int32 = 0
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let software: Int32 = 70
    static let unavailable: Int32 = 69
    static let cannotCreate: Int32 = 73
    static let tempFailure: Int32 = 75
    static let configuration: Int32 = 78
}
