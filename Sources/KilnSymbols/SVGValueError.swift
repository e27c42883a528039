/// A malformed attribute or property value; the reader adds the element's place and the
/// attribute's name.
struct SVGValueError: Error {
    let message: String
}
