import Foundation
import KilnMedia
import XCTest

func quietFFmpegLogs() { MediaLibraries.setLogLevel(.error) }
