/// What a handler does with a request once its headers are in: answer at once (the body, if any, is
/// never read), or read the body into a receiver and answer at its end.
///
/// ```swift
/// func begin(_ request: HTTPRequest) -> HTTPExchange {
///     request.method == "PATCH" ? .receive(UploadAppend(…)) : .respond(HTTPResponse(status: 404))
/// }
/// ```
package enum HTTPExchange: Sendable {
    case respond(HTTPResponse)
    case receive(any HTTPBodyReceiver)
}

/// Takes a request's body piece by piece, on the connection's thread, then gives the response.
///
/// Exactly one of ``finish()`` (the body arrived whole) and ``abandon()`` (the connection went away
/// before the response was queued) is called last; ``receive(_:)`` is never called after either.
package protocol HTTPBodyReceiver: AnyObject, Sendable {
    /// A piece of the body; `false` when no more is wanted (the rest is dropped, then ``finish()`` is asked).
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// The body has ended, or no more was wanted: the response.
    func finish() -> HTTPResponse
    /// The request ended without ``finish()``: the client went away or the server is stopping.
    func abandon()
}

/// Handles every request of an ``HTTPServer``, on the request's connection thread (it may block).
package protocol HTTPHandler: Sendable {
    func begin(_ request: HTTPRequest) -> HTTPExchange
}
