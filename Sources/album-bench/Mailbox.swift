import Foundation

/// A one-shot value handed from one thread to another.
// @unchecked Sendable is safe: `value` is only touched while `condition` is locked, and `take()`
// waits on the condition until `put(_:)` has stored the value.
final class Mailbox<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value?

    func put(_ newValue: Value) {
        condition.lock()
        value = newValue
        condition.broadcast()
        condition.unlock()
    }

    func take() -> Value {
        condition.lock()
        defer { condition.unlock() }
        while value == nil { condition.wait() }
        return value!
    }
}
