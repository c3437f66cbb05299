// The checks of a step entering a thread's resolution path that cost the same at every depth:
// a path too deep, and the counts of the path's steps that the cycle check (`checkCycle`,
// ResolutionFrame.swift) looks a step up in past `walkedDepth`.

extension ResolutionFrame {
    /// The depth of the first check of the depth limit and the stack (see `enter`): deeper
    /// than most resolutions. A limit below it is enforced from there.
    static let firstDepthCheck = 8

    /// Stops the process if the path is too deep for `step`: past the limit, or where the
    /// stack has no room left for more, while it has room to say so.
    func checkDepth(_ step: ResolutionStep) {
        let limit = ContainerManager.maximumResolutionDepth
        if depth >= limit {
            ResolutionStep.failTooDeep(path + [step], limit: limit)
        }
        if Self.stackPosition() < stackLimit {
            ResolutionStep.failTooDeep(path + [step], limit: limit, isStackShort: true)
        }
    }
}

extension ResolutionFrame.Resolution {
    /// Counts the steps on the path, from now on.
    mutating func startCounting() {
        countedKeys = path.map(PathKey.init)
        counted = [PathKey: Int](counting: countedKeys.compactMap { $0 })
    }

    /// Whether `step` is on the path, counted, and counts it: it enters the path.
    @inline(never)
    mutating func countEntering(_ step: borrowing ResolutionStep) -> Bool {
        let key = PathKey(copy step)
        countedKeys.append(key)
        guard let key else { return false }
        return counted!.enter(key)
    }

    /// Stops counting the step on top of the path: it leaves it.
    @inline(never)
    mutating func countLeaving() {
        if path.count == 1 {
            (counted, countedKeys) = (nil, [])
        } else if let key = countedKeys.removeLast() {
            counted!.leave(key)
        }
    }
}
